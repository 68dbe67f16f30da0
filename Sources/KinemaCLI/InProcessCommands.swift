import ArgumentParser
import Kinema

/// `kinema keyframes` run in process for a front end (kinema-studio): the same parsing, checks and
/// output text as on the command line, and a failure as the one line the command prints after
/// `kinema: error: `. The flags are parsed once (argument-parser's parse is most of a small bake's
/// cost: it is done once per kind of motion); the duration, the spring in every dialect and the bake
/// all read the same flags.
public struct InProcessCommands {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        /// A malformed command line (the command exits 64) rather than a rejected value (1).
        public let isUsage: Bool
        /// Valid, but past the work a bake takes (`CLIError.isOverLimit`).
        public var isOverLimit = false
    }

    /// The formats of `kinema keyframes --format`.
    public static let keyframeFormats = KeyframesCommand.Format.allCases.filter { $0 != .js }.map(\.rawValue)

    let arguments: [String]
    /// The template's writing flags (`--format` is given per text).
    let command: KeyframesCommand
    var request: MotionRequest

    /// `kinema keyframes` for a motion given as `kind` (`--spring`, `--drop`, `--easing NAME`, or
    /// `--scene` with the scene file's text as its text flag), its numeric flags, its text flags
    /// and its switches (`--draw-planes`), each a field of `MotionRequest` set on a template parsed
    /// once per kind, so no request pays for argument-parser (a millisecond, most of a small bake),
    /// with `arguments`, the same flags as a command line, for the messages to quote (a scene's
    /// text as `--scene=scene.json`).
    public init(
        kind: String, numbers: [(flag: String, value: Double)], texts: [(flag: String, value: String)],
        switches: [String] = []
    ) throws(Failure) {
        arguments =
            ["keyframes"] + (kind == "--easing" || kind == "--scene" ? [] : [kind])
            + numbers.map { "\($0.flag)=\($0.value)" }
            + texts.map { "\($0.flag)=\($0.flag == "--scene" ? "scene.json" : $0.value)" } + switches
        guard let template = Self.templates[kind] else {
            throw Failure(description: "unknown motion '\(kind)'", isUsage: true)
        }
        (command, request) = template
        for (flag, value) in numbers {
            guard let field = MotionRequest.bakeFields[flag], request.set(field, to: value) else {
                throw Failure(description: "'\(flag)' is not a number flag of kinema keyframes", isUsage: true)
            }
        }
        for (flag, value) in texts {
            if flag == "--scene" && kind == "--scene" {
                let arguments = arguments
                request.scene.loaded = try Self.capture(arguments) {
                    try PhysicsScene(json: value, source: "scene.json")
                }
                continue
            }
            guard flag != "--scene", let field = MotionRequest.bakeFields[flag], request.set(field, text: value) else {
                throw Failure(description: "'\(flag)' is not a text flag of kinema keyframes", isUsage: true)
            }
        }
        for flag in switches {
            guard let field = MotionRequest.bakeFields[flag], case .bake = field, request.set(field, given: true) else {
                throw Failure(description: "'\(flag)' is not a switch of kinema keyframes", isUsage: true)
            }
        }
        if kind == "--scene" && request.scene.loaded == nil {
            throw Failure(description: "'--scene' needs the scene file's text", isUsage: true)
        }
    }

    /// The parsed `kinema keyframes --spring`, `--drop`, `--easing linear` and `--scene FILE`
    /// (the file never read: the scene is given as its text).
    private static let templates: [String: (command: KeyframesCommand, request: MotionRequest)] = {
        var templates: [String: (KeyframesCommand, MotionRequest)] = [:]
        for kind in ["--spring", "--drop", "--easing", "--scene"] {
            let arguments = kind == "--easing" ? [kind, "linear"] : kind == "--scene" ? [kind, "scene.json"] : [kind]
            guard let command = try? KeyframesCommand.parse(arguments) else { continue }
            templates[kind] = (command, command.request)
        }
        return templates
    }()

    /// The duration the bake covers: `--duration`, else 1 s for an easing, the settling time of
    /// a spring or the rest time of a drop; nil when there is none.
    public func duration() throws(Failure) -> Double? {
        try Self.capture(arguments) {
            if let duration = request.bake.duration { return duration }
            return request.bake.easing != nil ? 1 : try request.scene.makeScene().defaultDuration
        }
    }

    /// The bodies of a `--scene` motion (nil for the others): a front end's limit, checked
    /// before anything is computed.
    public var sceneBodyCount: Int? { request.scene.loaded?.bodies.count }

    /// What `kinema spring --format json` prints for the spring flags: the spring in every dialect.
    public func springJSON() throws(Failure) -> String {
        try Self.capture(arguments) {
            SpringCommand.render(try SpringCommand.fields(request.scene.springOptions, epsilon: 0.001), as: .json)
        }
    }

    /// The bake, and the text of each format from it.
    public func bake() throws(Failure) -> Baked {
        Baked(parent: self, bake: try Self.capture(arguments) { try command.bake(request) })
    }

    /// What `kinema keyframes --spring … --retargetable --format FORMAT` (json or js) prints for
    /// the spring flags and the tolerance: its ends, duration and strategy are not the responses'.
    public func retargetable(_ format: String) throws(Failure) -> String {
        try Self.capture(arguments) {
            let spring = try RetargetableSpring(
                spring: try request.scene.springOptions.spring(), tolerance: request.bake.tolerance)
            return try KeyframesCommand.retargetableText(spring, as: try choose(format, "--format"))
        }
    }

    /// kinema-spring.js, the player of the retargetable exports.
    public static var springModule: String { KeyframesCommand.springModule }

    public struct Baked {
        let parent: InProcessCommands
        public let bake: KeyframesBake

        /// The text `kinema keyframes … --format FORMAT` prints.
        public func text(_ format: String) throws(Failure) -> String {
            try InProcessCommands.capture(parent.arguments) {
                try parent.command.render(bake, as: try choose(format, "--format"), settings: parent.request.bake)
            }
        }
    }

    /// The spring dialects of `--spring`: each name, its parameters (flags without dashes, in
    /// camelCase) and whether `--mass` applies.
    public static var springDialects: [(name: String, parameters: [String], takesMass: Bool)] {
        SpringOptions.dialects.map { ($0.name, $0.flags.map(\.name).sorted().map(parameter(forFlag:)), $0.takesMass) }
    }

    /// A JSON string literal as the exports write one, for answers that embed them.
    public static func json(_ text: String) -> String { KeyframeExport.string(text) }

    /// A finite number as the exports write it (Swift's shortest form, which JSON reads), else null.
    public static func json(_ value: Double) -> String { KeyframeExport.number(value) }

    /// `origamiTension` → `--origami-tension`: a parameter's flag.
    public static func flag(forParameter parameter: String) -> String { flagName(forProperty: parameter) }

    /// `--origami-tension` → `origamiTension`: a flag's parameter.
    public static func parameter(forFlag flag: String) -> String {
        flag.drop { $0 == "-" }.split(separator: "-").enumerated().map { $0 == 0 ? String($1) : $1.capitalized }
            .joined()
    }

    /// `body`'s result, or its error as the command reports it (`KinemaCommand.run(arguments:)`),
    /// with `arguments` as the typed command line its messages quote.
    static func capture<T>(_ arguments: [String], _ body: () throws -> T) throws(Failure) -> T {
        do {
            return try RawArguments.$current.withValue(arguments) { try body() }
        } catch let error as CLIError {
            throw Failure(
                description: KinemaCommand.oneLine(error.description), isUsage: error.isUsage,
                isOverLimit: error.isOverLimit)
        } catch let error as KinemaError {
            throw Failure(description: KinemaCommand.oneLine(error.description), isUsage: false)
        } catch {
            let message = KinemaCommand.fullMessage(for: error)
            let text = message.hasPrefix("Error: ") ? String(message.dropFirst("Error: ".count)) : message
            let line = text.split(separator: "\n").first.map(String.init) ?? "invalid arguments"
            throw Failure(
                description: KinemaCommand.oneLine(line), isUsage: KinemaCommand.exitCode(for: error).rawValue == 64)
        }
    }
}
