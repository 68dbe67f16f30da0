import ArgumentParser
import Foundation
import Kinema

/// The scene flags shared by `simulate`, `keyframes`, `sweep` and `work-precision`.
struct SceneOptions: ParsableArguments {
    @Flag(help: "A 1-D spring from --from to --to (see the spring dialect flags).")
    var spring = false
    @Flag(help: "A ball dropped from --height onto a floor at 0 (1-D: x is the height).")
    var drop = false
    @Option(help: "A scene read from a JSON file (schema in the README).")
    var scene: String?

    @OptionGroup var springOptions: SpringOptions

    @Option(parsing: .unconditional, help: "Drop height (default 1).")
    var height: Double?
    @Option(parsing: .unconditional, help: "Drop gravity, units/s² (default 9.81).")
    var gravity: Double?
    @Option(parsing: .unconditional, help: "Drop restitution in [0, 1] (default 0.5).")
    var restitution: Double?
    @Option(parsing: .unconditional, help: "Impact speed below which the ball rests (default 0.01).")
    var restVelocity: Double?

    /// The flags as plain values, which hold the logic (`makeScene`).
    var values: SceneValues { SceneValues(self) }
}

/// The scene flags (the options are `SceneOptions`' properties of the same names; see
/// `DeclaredFlag`).
enum SceneFlag: Int, DeclaredFlag {
    case spring, drop, scene, height, gravity, restitution, restVelocity
    static let propertyNames = allCases.map { "\($0)" }

    var kind: FlagKind {
        switch self {
        case .spring, .drop: return .presence
        case .scene: return .text
        case .height, .gravity, .restVelocity: return .number(.nonNegative)
        case .restitution:
            return .number(.interval(0, 1, includesLower: true, includesUpper: true, text: "a number in [0, 1]"))
        }
    }

    /// The flags that apply to `--drop` alone (`--rest-velocity` also applies to scene files).
    static let dropOnly = mask(.height, .gravity, .restitution), restVelocityBit = mask(.restVelocity)
    static let kinds = mask(.spring, .drop, .scene)
}

/// The scene flags as plain values, and the scene they describe (`makeScene`).
struct SceneValues {
    var flags: FlagValues<SceneFlag>
    var springOptions: SpringValues
    /// The `--scene` file, once read (a sweep reads it once for all its rows).
    var loaded: PhysicsScene?
    /// Fields of the `--scene` file set to other values (a sweep's `--set PATH=RANGE`).
    var sets: [(path: ScenePath, value: Double)] = []

    init(_ options: SceneOptions) {
        (flags, springOptions) = (FlagValues(reading: options), options.springOptions.values)
    }

    subscript(flag: SceneFlag) -> Double? {
        get { flags[flag] }
        set { flags[flag] = newValue }
    }
}

extension SceneValues {
    /// The scene, the duration it suggests when `--duration` is absent (nil: none; not computed
    /// unless `suggestingDuration`: a spring's settling duration takes root finding, which a sweep
    /// with `--duration` skips for every row), and a spring's closed form.
    func makeScene(suggestingDuration: Bool = true) throws
        -> (scene: PhysicsScene, defaultDuration: Double?, exact: DampedHarmonicOscillator?)
    {
        if flags.isGiven(.spring) {
            let made = try makeSpring(suggestingDuration: suggestingDuration)
            let scene = try PhysicsScene.spring(
                made.parameters, from: made.from, to: made.to, initialVelocity: made.velocity)
            return (scene, made.defaultDuration, made.exact)
        }
        try checkOneKind()
        if flags.isGiven(.drop) {
            try flags.check(SceneFlag.dropOnly)
            let h = self[.height] ?? 1, g = self[.gravity] ?? 9.81, e = self[.restitution] ?? 0.5
            let scene = try PhysicsScene.drop(
                height: h, gravity: g, restitution: e,
                restVelocity: self[.restVelocity] ?? PhysicsScene.defaultRestVelocity)
            // Time to rest, t1·(1 + e)/(1 − e) with t1 = √(2h/g); none when it never rests.
            guard g > 0, e < 1 else { return (scene, nil, nil) }
            let rest = (2 * h / g).squareRoot() * (1 + e) / (1 - e)
            return (scene, rest > 0 ? rest : 1, nil)
        }
        var parsed = try (loaded ?? loadScene()).setting(sets)
        if let restVelocity = self[.restVelocity] {
            parsed = try PhysicsScene(
                dimensions: parsed.dimensions, bodies: parsed.bodies, springs: parsed.springs,
                gravity: parsed.gravity, drag: parsed.drag, planes: parsed.planes,
                contacts: parsed.contacts, restVelocity: restVelocity)
        }
        return (parsed, nil, nil)
    }

    /// A `--spring`'s parameters, ends and closed form, checked as `makeScene` checks them, without
    /// the scene (a sweep's batched rows need only these): any values this accepts make a scene.
    func makeSpring(suggestingDuration: Bool = true) throws -> (
        parameters: DampedSpring, from: Double, to: Double, velocity: Double, defaultDuration: Double?,
        exact: DampedHarmonicOscillator
    ) {
        try checkOneKind()
        if self[.restVelocity] != nil {
            throw CLIError("'--rest-velocity' applies to '--drop' and scenes with planes.")
        }
        let parameters = try springOptions.spring()
        let ends = try springOptions.endpoints()
        try KinemaError.requireFinite(ends.velocity, "velocity")
        let exact = try parameters.motion(from: ends.from, to: ends.to, initialVelocity: ends.velocity)
        guard suggestingDuration else { return (parameters, ends.from, ends.to, ends.velocity, nil, exact) }
        let settle = try parameters.settlingDuration(from: ends.from, to: ends.to, initialVelocity: ends.velocity)
        return (parameters, ends.from, ends.to, ends.velocity, settle.isFinite && settle > 0 ? settle : nil, exact)
    }

    /// One of `--spring`, `--drop` and `--scene`, and no flag of another kind. Written without
    /// arrays: a sweep checks every row.
    private func checkOneKind() throws {
        let kinds = (flags.given & SceneFlag.kinds).nonzeroBitCount
        guard kinds == 1 else {
            throw CLIError(
                kinds == 0
                    ? "give a scene: '--spring', '--drop' or '--scene FILE'."
                    : "'--spring', '--drop' and '--scene' exclude each other: give one.")
        }
        // The masks first: a sweep checks every row, and the names are needed only for the error.
        if !flags.isGiven(.drop), flags.given & SceneFlag.dropOnly != 0,
            let flag = flags.givenFlags(among: SceneFlag.dropOnly).first
        {
            throw CLIError("'\(flag.name)' applies to '--drop' only.")
        }
        if !flags.isGiven(.spring), springOptions.isAnyGiven, let flag = springOptions.givenFlags.first {
            throw CLIError("'\(flag)' applies to '--spring' only.")
        }
        try flags.check(SceneFlag.restVelocityBit)
    }

    /// The `--scene` file, read and validated.
    func loadScene() throws -> PhysicsScene {
        let path = flags[text: .scene] ?? ""
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let reason =
                !exists
                ? "no such file"
                : isDirectory.boolValue
                    ? "it is a directory, not a scene file"
                    : access(path, R_OK) != 0 ? String(cString: strerror(EACCES)) : "not readable UTF-8 text"
            throw CLIError("'--scene' cannot read '\(path)': \(reason).")
        }
        return try PhysicsScene(json: text, source: path)
    }
}
