import ArgumentParser
import Foundation
import Kinema

/// `kinema keyframes`: bake a motion into keyframes.
struct KeyframesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keyframes",
        abstract:
            "Bake a closed-form easing or a simulated 1-D motion into keyframes (values, keyTimes, cubic-bezier timing functions).",
        discussion: """
            Strategies: uniform (fps × duration linear segments, end point included), turning-points (knots at every \
            extremum and impact, Hermite segments from the exact velocities), adaptive (default: turning points, then \
            fitted bezier controls and extra knots until the max error ≤ tolerance × travel). Every result reports its \
            keyframe count and max error against the source (JSON "maxError"; Lottie "meta"; a comment in the other \
            formats). CSS adds each track as a linear() easing placed to the same tolerance (points at extrema and \
            impacts, more where it curves). Lottie is a complete document (one layer per track, --fps frames per \
            second) unless --lottie-bare. Several tracks are always one document.
            Springs and drops are sampled at 2 kHz from their closed form, scene files from dopri5 at 1e-11; \
            multi-dimensional scenes give one track per coordinate (JSON: an array of tracks).

            Examples:
              kinema keyframes --easing 'damped-cosine(5,30)' --tolerance 0.001
              kinema keyframes --easing bounce-out --strategy turning-points --format css
              kinema keyframes --spring --response 0.5 --bounce 0.3 --format swift
              kinema keyframes --drop --gravity 15.125 --restitution 0.5 --duration 1 --format lottie
              kinema keyframes --spring --response 0.5 --bounce 0.3 --retargetable --format js -o spring.js
            """
    )

    enum Format: String, CaseIterable { case json, css, lottie, swift, swiftui, js }

    @OptionGroup var sceneOptions: SceneOptions
    @OptionGroup var bakeOptions: BakeOptions
    @Option(
        name: .customLong("key-path"),
        help: "The animated key path (default: value for easings, position.x… for scenes).")
    var keyPath: String?
    @Option(help: "json (default), css, lottie, swift or swiftui; js with --retargetable.")
    var format: String = "json"
    @Flag(
        help: """
            With --spring: bake the spring's unit step and impulse responses, from which a player composes \
            any motion of it and retargets it mid-flight with position and velocity kept (JSON, or with \
            --format js an ES module holding them and the player, kinema-spring.js; --format swift: \
            additive CAKeyframeAnimations). Start, target and velocity are the player's.
            """)
    var retargetable = false
    @Flag(
        name: .customLong("reduced-motion"),
        help: """
            Also bake the reduced-motion form: from the same start to the same end over the same duration, \
            critically damped (no overshoot). CSS gets it inside @media (prefers-reduced-motion: reduce); \
            the other formats are that form alone.
            """)
    var reducedMotion = false
    @Option(
        name: .customLong("lottie-property"),
        help: "Lottie: the layer property each track animates: position (default), scale, rotation or opacity.")
    var lottieProperty: String = "position"
    @Option(
        name: .customLong("lottie-range"), parsing: .unconditional,
        help:
            "Lottie: 'A:B', the property's value where the track's value is 0 and 1 (default 0:400 px for position, 0:100 % for scale and opacity, 0:360° for rotation)."
    )
    var lottieRange: String?
    @Flag(
        name: .customLong("lottie-bare"),
        help:
            "Lottie: print only each track's animated property ({\"a\": 1, \"k\": […]}; a JSON array for several), not a document."
    )
    var lottieBare = false
    @Option(
        name: .customLong("swiftui-name"),
        help:
            "SwiftUI: the name of the declarations, NAMEValues and NAMEKeyframes() (default kinema), so that two exports can sit in one module."
    )
    var swiftUIName = "kinema"
    @Flag(
        name: .customLong("no-flip-y"),
        help: "With --canvas: the scene's y grows downward as the canvas's does (default: the scene's up is up).")
    var noFlipY = false
    @Option(
        name: .customLong("value-scale"), parsing: .unconditional,
        help: """
            Values as a layer takes them: each exported value is OFFSET + SCALE × value (a number, or percent: \
            100, degrees: 180/π, radians to degrees); default 1.
            """)
    var valueScale: String?
    @Option(
        name: .customLong("value-offset"), parsing: .unconditional,
        help: "With or without --value-scale: added to each exported value (default 0).")
    var valueOffset: Double?
    @Flag(
        name: .customLong("full-precision"),
        help: """
            Print every number in shortest round-trip form (up to 17 digits). By default each is rounded to the \
            digits that keep the export within its stated max error (the fit's plus the rounding's).
            """)
    var fullPrecision = false
    @OptionGroup var output: OutputOptions

    /// `--value-scale` and `--value-offset` as one mapping; nil when neither is given.
    func valueMapping() throws -> ValueMapping? {
        guard valueScale != nil || valueOffset != nil else { return nil }
        let scale: Double
        switch valueScale {
        case nil: scale = 1
        case "percent": scale = ValueMapping.percent.scale
        case "degrees": scale = ValueMapping.degrees.scale
        case let text?:
            guard let number = Double(text), number.isFinite, number != 0 else {
                throw CLIError(
                    flag: "--value-scale", value: "'\(text)'", rule: "a finite, non-zero number, percent or degrees")
            }
            scale = number
        }
        try check(valueOffset, "--value-offset", .finite)
        return try ValueMapping(scale: scale, offset: valueOffset ?? 0)
    }

    /// `--lottie-range A:B` as two finite numbers.
    func parseRange(_ text: String) throws -> (from: Double, to: Double) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), a.isFinite, b.isFinite else {
            throw CLIError(flag: "--lottie-range", value: "'\(text)'", rule: "'A:B', two finite numbers")
        }
        return (a, b)
    }

    /// The motion and the bake the flags give, as plain values.
    var request: MotionRequest { MotionRequest(scene: sceneOptions.values, bake: bakeOptions.values) }

    /// The motion's tracks baked as `request` says (one bake: every format renders from it; a
    /// front end sets its values on a parsed template), written as this command's flags say.
    func bake(_ request: MotionRequest) throws -> KeyframesBake {
        let sceneFlags = request.scene, settings = request.bake
        let strategy = try choose(settings.strategy, "--strategy", KeyframeBaker.Strategy.self)
        _ = try choose(format, "--format", Format.self)
        try settings.check()
        let duration = settings.duration, tolerance = settings.tolerance
        if let duration, duration < KeyframeBaker.shortestDuration {
            throw CLIError(
                flag: "--duration", value: "\(duration)", rule: "at least \(KeyframeBaker.shortestDuration) s")
        }
        let mapping = try valueMapping()
        if settings.canvas == nil {
            let canvasOnly = settings.givenFlags(among: BakeFlag.mask(BakeFlag.canvasFlags)).map(\.name)
            for flag in canvasOnly + (noFlipY ? ["--no-flip-y"] : []) {
                throw CLIError("'\(flag)' applies to '--canvas' only.")
            }
        } else if settings.easing != nil {
            throw CLIError("'--canvas' draws a scene's bodies: give '--scene FILE', not an easing.")
        } else if settings.isGiven(.tolerance) {
            throw CLIError(
                "'--tolerance' is a fraction of a track's travel: '--canvas' bounds the error in pixels with '--pixel-tolerance'."
            )
        } else if mapping != nil {
            throw CLIError(
                "'--value-scale' and '--value-offset' apply to one-dimensional tracks: '--canvas' maps a scene with '--pixels-per-unit' and '--origin'."
            )
        }
        var tracks: [(keyPath: String, source: MotionSource)] = []
        if let easing = settings.easing {
            if sceneFlags.flags.given & SceneFlag.kinds != 0 {
                throw CLIError("'--easing' and a scene ('--spring', '--drop', '--scene') exclude each other: give one.")
            }
            tracks = [(keyPath ?? "value", try MotionSource(easing: Easing(name: easing), duration: duration ?? 1))]
        } else {
            let (scene, suggested, _) = try sceneFlags.makeScene()
            if let canvas = settings.canvas { _ = try canvasSize(canvas, dimensions: scene.dimensions) }
            guard let total = duration ?? suggested else {
                throw CLIError("'--duration' is needed: this scene has no settling time of its own.")
            }
            // At least 1,000 samples over the motion, however short, and 16 a turn of a spring: the
            // bake follows the samples' interpolant, which must follow the motion.
            var sampleRate = max(2_000, 1_000 / total)
            if sceneFlags.flags.isGiven(.spring) {
                sampleRate = try Self.sampleRate(
                    sampleRate, try sceneFlags.springOptions.spring(), duration: total, tolerance: tolerance)
            }
            let values = (sampleRate * total + 1) * Double(scene.coordinateCount)
            guard values <= Self.valueLimit else {
                throw CLIError.overLimit(
                    "the bake would hold \(String(format: "%.3g", values)) samples (\(scene.coordinateCount) coordinates, "
                        + "\(Int(sampleRate)) a second for \(total) s), more than its \(Int(Self.valueLimit)): "
                        + "bake fewer bodies or a shorter '--duration'.")
            }
            let trajectory: Trajectory
            do {
                // A spring or a drop is one body on its closed form: exact, with no steps however
                // stiff (dopri5 spent 10⁷ steps on k = 1e15 and stopped at its budget).
                let method: IntegrationMethod =
                    sceneFlags.flags.isGiven(.scene) ? .dopri5(tolerance: 1e-11) : .exact
                trajectory = try Simulation.$eventBudget.withValue(KeyframeBaker.keyframeLimit) {
                    try Simulation(scene: scene).run(method: method, duration: total, sampleRate: sampleRate)
                }
            } catch SimulationError.tooManyEvents(let time, let limit) {
                throw CLIError.overLimit(
                    "the motion has more than \(limit) impacts by t = \(time) s, more than the \(limit) keyframes a bake "
                        + "holds: give a '--duration' of at most \(time) s, or a higher '--rest-velocity'.")
            } catch let error as SimulationError {
                throw CLIError(error, budget: "the budget is fixed: give a shorter '--duration'")
            }
            if let canvas = settings.canvas {
                return KeyframesBake(
                    tracks: [], fits: [], reduced: nil,
                    scene: try canvasBake(trajectory, canvas: canvas, settings: settings, strategy: strategy))
            }
            let axes = ["x", "y", "z"]
            for (b, body) in scene.bodies.enumerated() {
                for axis in 0..<scene.dimensions {
                    let base =
                        scene.bodies.count == 1 ? "position.\(axes[axis])" : "\(body.name).position.\(axes[axis])"
                    let path =
                        scene.coordinateCount == 1 ? (keyPath ?? base) : (keyPath.map { "\($0).\(axes[axis])" } ?? base)
                    tracks.append(
                        (path, try MotionSource(trajectory: trajectory, coordinate: b * scene.dimensions + axis)))
                }
            }
        }
        func bakeAll(_ tracks: [(keyPath: String, source: MotionSource)]) throws -> [KeyframeFit] {
            try tracks.map {
                var fit = try KeyframeBaker.bake(
                    $0.source, strategy: strategy, tolerance: tolerance, framesPerSecond: settings.framesPerSecond,
                    keyPath: $0.keyPath)
                if let mapping { fit = try fit.mapped(mapping) }
                fit.rounding = fullPrecision ? .none : .toBound
                return fit
            }
        }
        let reduced = try reducedMotion ? tracks.map { ($0.keyPath, try MotionSource(reducedMotionOf: $0.source)) } : []
        return KeyframesBake(
            tracks: tracks, fits: try bakeAll(tracks),
            reduced: reducedMotion ? (reduced.map(\.1), try bakeAll(reduced)) : nil, scene: nil)
    }

    /// `--canvas WxH` as a width and a height of 1 to 16384 pixels, for a scene of `dimensions`
    /// (2 or 3: the canvas draws x and y); checked before the scene runs.
    func canvasSize(_ canvas: String, dimensions: Int) throws -> (width: Double, height: Double) {
        let size = canvas.split(separator: "x", omittingEmptySubsequences: false).map { Double($0) }
        guard size.count == 2, let width = size[0], let height = size[1] else {
            throw CLIError(flag: "--canvas", value: "'\(canvas)'", rule: "'WxH', the width and height in pixels")
        }
        for (name, value) in [("width", width), ("height", height)] where !(1...16384).contains(value) {
            throw CLIError(flag: "--canvas", value: "'\(canvas)'", rule: "'WxH' with a \(name) of 1 to 16384 pixels")
        }
        guard dimensions >= 2 else {
            throw CLIError("'--canvas' draws x and y: the scene has \(dimensions) dimension.")
        }
        return (width, height)
    }

    /// `--canvas`: every body of the scene's trajectory on the canvas the flags describe.
    func canvasBake(
        _ trajectory: Trajectory, canvas: String, settings: BakeValues, strategy: KeyframeBaker.Strategy
    ) throws -> SceneKeyframes {
        let (width, height) = try canvasSize(canvas, dimensions: trajectory.scene.dimensions)
        let tolerance = settings.pixelTolerance
        if reducedMotion { throw CLIError("'--reduced-motion' applies to one-dimensional motions, not to '--canvas'.") }
        guard strategy != .turningPoints else {
            throw CLIError(flag: "--strategy", value: "'turning-points'", rule: "adaptive or uniform with '--canvas'")
        }
        let fitted = try CanvasMapping.fitting(trajectory, width: width, height: height, flipsY: !noFlipY)
        var mapping = fitted
        if let pixelsPerUnit = settings.pixelsPerUnit {
            var point = SIMD2(width / 2, height / 2)
            if let origin = settings.origin {
                let parts = origin.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
                guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite, y.isFinite else {
                    throw CLIError(flag: "--origin", value: "'\(origin)'", rule: "'X,Y', two finite numbers of pixels")
                }
                point = SIMD2(x, y)
            } else {
                // The fitted canvas's centre stays where it is, at this scale.
                let centre = (SIMD2(width / 2, height / 2) - fitted.origin) / fitted.pixelsPerUnit
                point = SIMD2(width / 2, height / 2) - pixelsPerUnit * centre
            }
            mapping = try CanvasMapping(
                width: width, height: height, pixelsPerUnit: pixelsPerUnit, origin: point, flipsY: !noFlipY)
        } else if settings.origin != nil {
            throw CLIError("'--origin' needs '--pixels-per-unit': the fitted canvas chooses both.")
        }
        var scene: SceneKeyframes
        do {
            scene = try SceneKeyframes(
                trajectory: trajectory, mapping: mapping, tolerance: tolerance, strategy: strategy,
                framesPerSecond: settings.framesPerSecond)
        } catch let error as KinemaError where error.parameter == "tolerance" {
            throw CLIError(flag: "--pixel-tolerance", value: error.value, rule: error.rule)
        }
        scene.rounding = fullPrecision ? .none : .toBound
        if settings.drawsPlanes { scene.drawPlanes(of: trajectory.scene) }
        return scene
    }

    /// `--retargetable`: the spring's responses (`RetargetableSpring`) as `format` renders them.
    func retargetableText(_ request: MotionRequest) throws -> String {
        let sceneFlags = request.scene, settings = request.bake
        let format = try choose(format, "--format", Format.self)
        guard sceneFlags.flags.isGiven(.spring), settings.easing == nil,
            sceneFlags.flags.given & SceneFlag.kinds == SceneFlag.mask(.spring)
        else {
            throw CLIError(
                "'--retargetable' bakes a spring: give '--spring' and its parameters, not an easing or a scene.")
        }
        for (flag, given, reason) in [
            (
                "--duration", settings.duration != nil,
                "each response lasts until it settles within a tenth of the tolerance"
            ),
            ("--key-path", keyPath != nil, "the player names the property it animates"),
            ("--reduced-motion", reducedMotion, "the reduced-motion step is always among the responses"),
            (
                valueScale != nil ? "--value-scale" : "--value-offset", valueScale != nil || valueOffset != nil,
                "the player scales the responses to each move, in the property's units"
            )
        ] where given {
            throw CLIError("'\(flag)' does not apply to '--retargetable': \(reason).")
        }
        if let flag = sceneFlags.springOptions.givenFlags(
            among: SpringFlag.mask(.from, .to, .velocity, .relativeVelocity)
        ).first {
            throw CLIError(
                "'\(flag.name)' does not apply to '--retargetable': the start, the target and the velocity are the player's."
            )
        }
        guard settings.strategy == KeyframeBaker.Strategy.adaptive.rawValue else {
            throw CLIError(
                flag: "--strategy", value: "'\(settings.strategy)'", rule: "adaptive with '--retargetable'")
        }
        try settings.check(BakeFlag.mask(.tolerance))
        var baked = try RetargetableSpring(
            spring: try sceneFlags.springOptions.spring(), tolerance: settings.tolerance)
        baked.rounding = fullPrecision ? .none : .toBound
        return try Self.retargetableText(baked, as: format)
    }

    /// A retargetable spring's responses in `format`: json, js (the player and the responses, one
    /// ES module) or swift (additive Core Animation builders).
    static func retargetableText(_ baked: RetargetableSpring, as format: Format) throws -> String {
        switch format {
        case .json: return KeyframeExport.json(baked)
        case .js:
            return springModule + "\n/** The spring's responses, baked by kinema keyframes --retargetable. */\n"
                + "export const responses = " + KeyframeExport.json(baked).dropLast() + ";\n"
        case .swift: return KeyframeExport.swift(baked)
        default:
            throw CLIError(
                flag: "--format", value: "'\(format.rawValue)'", rule: "json, js or swift with '--retargetable'")
        }
    }

    /// kinema-spring.js, the browser module that plays `--retargetable` exports.
    static let springModule = String(decoding: PackageResources.kinema_spring_js, as: UTF8.self)

    /// The most samples a spring's bake takes (48 MB of times, positions and velocities).
    static let sampleLimit = 2_000_000.0
    /// The most samples of all coordinates a bake holds: the trajectory and each coordinate's
    /// motion are held while every coordinate is baked, about 140 bytes a sample, so at most
    /// about 560 MB (1,000 bodies in 2-D for 2 s at 2 kHz take 4,000,000).
    static let valueLimit = 4_000_000.0

    /// `rate`, or 16 samples a turn of `spring` where that is more; refused, before anything is
    /// sampled, for a spring that turns more often than a bake holds keyframes, or that needs more
    /// than `sampleLimit` samples. Its turns are counted from the closed form up to the duration or
    /// until they stay within half the tolerance (smaller ripples are not knots). k = 1e308 turns
    /// 10¹⁵⁴ times a second: 2 kHz samples could not follow it, and its bake reported an error of 1e149.
    static func sampleRate(_ rate: Double, _ spring: DampedSpring, duration: Double, tolerance: Double) throws -> Double
    {
        let perSecond = spring.dampedFrequency / .pi
        guard perSecond > 0 else { return rate }
        let visible = min(duration, (try? spring.settlingDuration(epsilon: 0.5 * tolerance)) ?? duration)
        let turns = perSecond * visible, needed = max(rate, 16 * perSecond)
        let limit = KeyframeBaker.keyframeLimit
        guard turns <= Double(limit) && needed * duration <= sampleLimit else {
            throw CLIError.overLimit(
                "the spring turns \(KinemaCommand.count(turns)) times in \(visible) s (\(String(format: "%.3g", perSecond)) a second): "
                    + "a bake of at most \(limit) keyframes and \(Int(sampleLimit)) samples cannot follow it; "
                    + "give a slower spring or a shorter '--duration'.")
        }
        return needed
    }

    /// The bake's text in `format`, as the command prints it, with the frame rate and the
    /// tolerance of `settings` (the bake's).
    func render(_ bake: KeyframesBake, as format: Format, settings: BakeValues) throws -> String {
        let fps = settings.framesPerSecond, tolerance = settings.tolerance
        // Reduced motion: CSS plays it under its media query; every other format is that form alone.
        if let scene = bake.scene {
            switch format {
            case .json: return KeyframeExport.json(scene)
            case .css: return KeyframeExport.css(scene)
            case .lottie: return KeyframeExport.lottie(scene, frameRate: fps)
            case .swift: return KeyframeExport.swift(scene)
            case .swiftui: return KeyframeExport.swiftUI(scene, name: swiftUIName)
            case .js:
                throw CLIError(
                    flag: "--format", value: "'js'", rule: "json, css, lottie, swift or swiftui with '--canvas'")
            }
        }
        let fits = format == .css ? bake.fits : bake.reduced?.fits ?? bake.fits, tracks = bake.tracks
        let text: String
        switch format {
        case .js:
            throw CLIError(
                flag: "--format", value: "'js'",
                rule: "given with '--retargetable' (an ES module plays a spring's responses)")
        case .json:
            text =
                fits.count == 1
                ? KeyframeExport.json(fits[0]) + "\n"
                : "[\n" + fits.map(KeyframeExport.json).joined(separator: ",\n") + "\n]\n"
        case .css:
            // Per track: @keyframes with cubic-bezier() segments, then the same motion as a linear() easing.
            func sheet(_ fits: [KeyframeFit], _ sources: [MotionSource], registering: Bool) throws -> String {
                try zip(sources, fits).map { source, fit in
                    let name = "kinema-" + fit.animation.keyPath.replacingOccurrences(of: ".", with: "-")
                    var css = KeyframeExport.css(fit, name: name)
                    if !registering {
                        css =
                            css.split(separator: "\n").filter { !$0.hasPrefix("@property") }.joined(separator: "\n")
                            + "\n"
                    }
                    do {
                        css += KeyframeExport.cssLinear(
                            try CSSLinearEasing(fitting: source, tolerance: tolerance), fit, name: name)
                    } catch let error as KinemaError where error.parameter.hasPrefix("travel") {
                        css += "/* no linear() easing for \(fit.animation.keyPath): it ends where it starts */\n"
                    }
                    return css
                }.joined(separator: "\n")
            }
            var css = try sheet(fits, tracks.map(\.source), registering: true)
            if let reduced = bake.reduced {
                css += "\n/* reduced motion: the same ends, critically damped (no overshoot) */\n"
                css += "@media (prefers-reduced-motion: reduce) {\n"
                css += try sheet(reduced.fits, reduced.sources, registering: false).split(separator: "\n").map {
                    "  " + $0
                }.joined(
                    separator: "\n")
                css += "\n}\n"
            }
            text = css
        case .lottie:
            if lottieBare {
                let properties = fits.map { KeyframeExport.lottieProperty($0, frameRate: fps) }
                text = properties.count == 1 ? properties[0] : "[\n" + properties.joined(separator: ",\n") + "]\n"
            } else {
                let property = try choose(lottieProperty, "--lottie-property", LottieDocument.Property.self)
                // Values mapped by --value-scale are the property's already.
                let range = try lottieRange.map { try parseRange($0) } ?? (try valueMapping() != nil ? (0, 1) : nil)
                text = try LottieDocument(property: property, range: range, frameRate: fps).json(fits)
            }
        case .swift:
            text = fits.enumerated().map {
                KeyframeExport.swift($1, name: "animation\(fits.count > 1 ? "\($0 + 1)" : "")")
            }.joined(separator: "\n")
        case .swiftui: text = KeyframeExport.swiftUI(fits, name: swiftUIName)
        }
        return text
    }

    func run() throws {
        try DistinctFiles.check(
            outputs: [("-o", output.output)], inputs: [("--scene", sceneOptions.values.flags[text: .scene])])
        let request = request
        if retargetable { return try output.emit(try retargetableText(request)) }
        let bake = try bake(request)
        let text = try render(bake, as: try choose(format, "--format", Format.self), settings: request.bake)
        try output.emit(text)
        if let scene = bake.scene {
            StandardStreams.writeError(
                "keyframes: \(scene.bodies.count) \(scene.bodies.count == 1 ? "body" : "bodies"), \(scene.bodies.map(\.keyframeCount).reduce(0, +)) keyframes, "
                    + "max error \(String(format: "%.3g", scene.maxError)) px (tolerance \(scene.tolerance) px), "
                    + "\(text.utf8.count) bytes\n")
        }
        for fit in bake.fits {
            guard let shortfall = fit.shortfall, let bound = fit.bound else { continue }
            StandardStreams.writeError(
                KinemaCommand.oneLine(
                    "keyframes: \(fit.animation.keyPath): max error \(fit.maxError) is above \(bound) "
                        + "(--tolerance \(request.bake.tolerance) × the travel): \(shortfall).") + "\n")
        }
        for fit in bake.fits where fit.controlsOutsideUnitInterval > 0 {
            StandardStreams.writeError(
                KinemaCommand.oneLine(
                    "keyframes: \(fit.animation.keyPath): \(fit.controlsOutsideUnitInterval) timing-function y-controls lie outside [0, 1]."
                ) + "\n"
            )
        }
    }
}

/// A bake of `kinema keyframes`: each track's source and fit.
public struct KeyframesBake {
    public let tracks: [(keyPath: String, source: MotionSource)]
    public let fits: [KeyframeFit]
    /// With `--reduced-motion`, each track's reduced-motion form (`MotionSource(reducedMotionOf:)`)
    /// and its fit.
    public let reduced: (sources: [MotionSource], fits: [KeyframeFit])?
    /// With `--canvas`, every body on the canvas (and no tracks).
    public let scene: SceneKeyframes?
}
