import Foundation
@_spi(Studio) import Kinema
import KinemaCLI

/// The answer to a bake: the keyframes' count and error, the settling time, the curve and its
/// keyframed copy sampled for the plot, the knots, the spring in every dialect, and every export,
/// each the bytes `kinema keyframes --format FORMAT` prints for the same flags (a spring's
/// retargetable ones, `--retargetable --format json` and `js`, for its dialect and tolerance).
struct BakeAnswer {
    /// Points of the plotted curves.
    static let plotPoints = 301

    let json: String

    /// Bakes `request` after checking it against the limits (422 before anything is computed).
    /// - Throws: `BakeRequest.Refusal`, or `InProcessCommands.Failure` with the CLI's message.
    init(_ request: BakeRequest) throws {
        try Self.checkLimits(request)
        let commands = try InProcessCommands(
            kind: request.kind, numbers: request.numbers, texts: request.texts, switches: request.switches)
        guard let duration = try commands.duration() else {
            throw BakeRequest.Refusal(
                status: 400, field: "duration", message: "'duration' is needed: this motion never settles.")
        }
        if request.source == "scene" {
            json = try Self.sceneAnswer(commands, duration: duration)
            return
        }
        guard duration <= BakeRequest.Limit.duration else {
            throw BakeRequest.Refusal(
                status: 422, field: "duration",
                message:
                    "the motion lasts \(duration) s, longer than the studio's \(BakeRequest.Limit.duration) s: give a shorter 'duration'."
            )
        }
        var spring = "null"
        if request.source == "spring" {
            spring = try commands.springJSON()
            try Self.checkOscillations(spring, duration: duration)
        }
        if let name = request.texts.first(where: { $0.flag == "--easing" })?.value,
            let oscillations = (try? Easing(name: name))?.oscillations
        {
            try Self.check(oscillations: oscillations, in: duration)
        }
        let baked = try commands.bake()
        var exports: [(String, String)] = []
        for format in InProcessCommands.keyframeFormats {
            exports.append((format, JSONText.string(try baked.text(format))))
        }
        // A spring can also be had retargetable: its responses, and the ES module that plays them.
        if request.source == "spring" {
            exports.append(("retargetable", JSONText.string(try commands.retargetable("json"))))
            exports.append(("js", JSONText.string(try commands.retargetable("js"))))
        }
        json = Self.answer(baked.bake, duration: duration, spring: spring, exports: exports)
    }

    /// A scene's answer: its canvas, each body's keyframes and error in pixels, the planes drawn (in
    /// the order of the CSS export's plane rules), every export and
    /// each export's size in bytes. The page plays the CSS export on the canvas.
    static func sceneAnswer(_ commands: InProcessCommands, duration: Double) throws -> String {
        let bodies = commands.sceneBodyCount ?? 0
        guard bodies <= BakeRequest.Limit.sceneBodies else {
            throw BakeRequest.Refusal(
                status: 422, field: "scene",
                message: "the scene has \(bodies) bodies, more than the studio's \(BakeRequest.Limit.sceneBodies).")
        }
        guard duration <= BakeRequest.Limit.sceneDuration else {
            throw BakeRequest.Refusal(
                status: 422, field: "duration",
                message:
                    "a scene may last at most \(BakeRequest.Limit.sceneDuration) s in the studio (got \(duration) s): give a shorter 'duration'."
            )
        }
        let baked = try commands.bake()
        guard let scene = baked.bake.scene else {
            throw BakeRequest.Refusal(status: 400, field: "canvas", message: "the scene was not drawn on a canvas.")
        }
        var exports: [(String, String)] = [], bytes: [(String, String)] = [], json = ""
        for format in InProcessCommands.keyframeFormats {
            let text = try baked.text(format)
            if format == "json" { json = text }
            exports.append((format, JSONText.string(text)))
            bytes.append((format, "\(text.utf8.count)"))
        }
        // The errors the JSON export states (rounded up to the digits it prints), as the readout shows.
        let stated = Self.statedErrors(json)
        let mapping = scene.mapping
        let drawn = scene.bodies.enumerated().map { b, body in
            JSONText.object([
                ("name", JSONText.string(body.name)), ("keyframes", "\(body.keyframeCount)"),
                ("maxError", JSONText.number(b + 1 < stated.count ? stated[b + 1] : body.maxError)),
                ("static", body.isStatic ? "true" : "false")
            ])
        }
        return JSONText.object([
            ("keyframes", "\(scene.bodies.map(\.keyframeCount).reduce(0, +))"),
            ("maxError", JSONText.number(stated.first ?? scene.maxError)),
            ("tolerance", JSONText.number(scene.tolerance)), ("duration", JSONText.number(scene.duration)),
            (
                "canvas",
                JSONText.object([("width", JSONText.number(mapping.width)), ("height", JSONText.number(mapping.height))]
                )
            ),
            ("bodies", "[" + drawn.joined(separator: ", ") + "]"),
            ("planes", "[" + scene.planes.map { JSONText.string($0.name) }.joined(separator: ", ") + "]"),
            ("bytes", JSONText.object(bytes)), ("exports", JSONText.object(exports))
        ]) + "\n"
    }

    /// The scene JSON export's `maxError`, then each body's, in order.
    static func statedErrors(_ json: String) -> [Double] {
        guard case .object(let members, _)? = try? JSONParser.parse(json) else { return [] }
        var errors: [Double] = []
        for member in members {
            if member.key == "maxError", case .number(let e) = member.value { errors.insert(e, at: 0) }
            guard member.key == "bodies", case .array(let bodies, _) = member.value else { continue }
            for case .object(let fields, _) in bodies {
                for field in fields where field.key == "maxError" {
                    if case .number(let e) = field.value { errors.append(e) }
                }
            }
        }
        return errors
    }

    /// The limits that need no computing: the requested duration, tolerance and frame rate.
    static func checkLimits(_ request: BakeRequest) throws(BakeRequest.Refusal) {
        for (field, limit, isMaximum) in [
            ("duration", BakeRequest.Limit.duration, true), ("fps", BakeRequest.Limit.fps, true),
            ("tolerance", BakeRequest.Limit.tolerance, false)
        ] {
            guard let value = request.number(field), value.isFinite, value > 0 else { continue }
            if isMaximum ? value > limit : value < limit {
                throw BakeRequest.Refusal(
                    status: 422, field: field,
                    message:
                        "'\(field)' must be \(isMaximum ? "at most" : "at least") \(limit) in the studio (got \(value))."
                )
            }
        }
    }

    /// A spring that swings more than `Limit.oscillations` times in the duration is refused: its
    /// keyframes (two an oscillation) would be more than a designer's tool should bake.
    static func checkOscillations(_ spring: String, duration: Double) throws(BakeRequest.Refusal) {
        let name = "\"undampedFrequency\": "
        guard let start = spring.range(of: name)?.upperBound,
            let value = Double(spring[start...].prefix { $0 != "," && $0 != "\n" })
        else { return }
        try check(oscillations: value * duration / (2 * .pi), in: duration)
    }

    static func check(oscillations: Double, in duration: Double) throws(BakeRequest.Refusal) {
        guard oscillations <= BakeRequest.Limit.oscillations else {
            throw BakeRequest.Refusal(
                status: 422, field: "duration",
                message:
                    "the motion swings \(KinemaCommand.count(oscillations)) times in \(duration) s, more than the studio's \(KinemaCommand.count(BakeRequest.Limit.oscillations)): give a slower motion or a shorter 'duration'."
            )
        }
    }

    static func answer(_ bake: KeyframesBake, duration: Double, spring: String, exports: [(String, String)]) -> String {
        let fit = bake.fits[0], source = bake.tracks[0].source, animation = fit.animation
        let times = (0..<plotPoints).map { duration * Double($0) / Double(plotPoints - 1) }
        let motion = times.map(source.value)
        let keyframed = times.map { animation.value(at: $0 / duration)[0] }
        // Settled: within 0.001 of the travel of the end from the next point on.
        let start = motion[0], end = motion[motion.count - 1]
        let travel = abs(end - start) > 0 ? abs(end - start) : 1
        var settling = 0.0
        for (i, value) in motion.enumerated() where abs(value - end) > 0.001 * travel {
            settling = times[min(i + 1, times.count - 1)]
        }
        return JSONText.object([
            ("keyframes", "\(fit.keyframeCount)"), ("maxError", KeyframeExport.statedError(fit)),
            ("duration", JSONText.number(duration)), ("settlingTime", JSONText.number(settling)),
            (
                "curve",
                JSONText.object([
                    ("t", JSONText.array(times)), ("motion", JSONText.array(motion)),
                    ("keyframed", JSONText.array(keyframed))
                ])
            ),
            (
                "knots",
                JSONText.object([
                    ("t", JSONText.array(animation.keyTimes.map { $0 * duration })),
                    ("value", JSONText.array(animation.values.map { $0[0] }))
                ])
            ),
            ("spring", spring.trimmingCharacters(in: .whitespacesAndNewlines)),
            ("exports", JSONText.object(exports))
        ]) + "\n"
    }
}
