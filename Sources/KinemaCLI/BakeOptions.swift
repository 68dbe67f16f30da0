import ArgumentParser
import Kinema

/// `kinema keyframes`' flags that say what is baked and how closely: the easing, the duration,
/// the strategy and its bounds, the canvas. The flags of how the bake is written (`--format`,
/// `--key-path`, the Lottie and SwiftUI names) are the command's own.
struct BakeOptions: ParsableArguments {
    @Option(help: "Bake this closed-form easing instead of a scene (names as for `kinema easing`).")
    var easing: String?
    @Option(parsing: .unconditional, help: "Duration in seconds (easing: default 1; scenes: as for simulate).")
    var duration: Double?
    @Option(help: "uniform, turning-points or adaptive (default).")
    var strategy: String?
    @Option(
        parsing: .unconditional,
        help: "Frames per second for the uniform strategy and the Lottie frame rate (default 60).")
    var fps: Double?
    @Option(parsing: .unconditional, help: "Adaptive: max error as a fraction of the travel (default 0.001).")
    var tolerance: Double?
    @Option(
        help: """
            With --scene (2-D or 3-D): bake one track per body on a canvas of 'WxH' pixels, x and y sharing their \
            keyframes, each body a circle of its radius (JSON, CSS, Lottie, Swift, SwiftUI); the scene's extent fits the \
            canvas unless --pixels-per-unit says otherwise.
            """)
    var canvas: String?
    @Option(
        parsing: .unconditional,
        help: "With --canvas: the scale, pixels per scene unit (default: the scene's extent fitted to the canvas).")
    var pixelsPerUnit: Double?
    @Option(
        parsing: .unconditional,
        help: "With --canvas and --pixels-per-unit: 'X,Y', the pixel where the scene's origin is (default: centred).")
    var origin: String?
    @Option(
        parsing: .unconditional,
        help: "With --canvas: the most a body's played position may be from the simulated one, in pixels (default 0.5)."
    )
    var pixelTolerance: Double?
    @Flag(help: "With --canvas: also draw the planes that cross the canvas edge-on, as lines beneath the bodies.")
    var drawPlanes = false

    /// The flags as plain values, which a front end sets by name (`MotionRequest`).
    var values: BakeValues { BakeValues(reading: self) }
}

/// The bake flags (the options are `BakeOptions`' properties of the same names; see
/// `DeclaredFlag`).
enum BakeFlag: Int, DeclaredFlag {
    case easing, duration, strategy, fps, tolerance, canvas, pixelsPerUnit, origin, pixelTolerance, drawPlanes
    static let propertyNames = allCases.map { "\($0)" }

    var kind: FlagKind {
        switch self {
        case .duration, .fps, .tolerance, .pixelsPerUnit, .pixelTolerance: return .number(.positive)
        case .easing, .strategy, .canvas, .origin: return .text
        case .drawPlanes: return .presence
        }
    }

    /// The flags that draw a scene on a canvas, and those that bound a track's error as a fraction
    /// of its travel (which a canvas bounds in pixels).
    static let canvasFlags: [Self] = [.canvas, .pixelTolerance, .pixelsPerUnit, .origin, .drawPlanes]
    static let travelFlags: [Self] = [.tolerance]
}

/// The bake flags as plain values, with their defaults.
typealias BakeValues = FlagValues<BakeFlag>

extension BakeValues {
    var easing: String? { self[text: .easing] }
    var duration: Double? { self[.duration] }
    var strategy: String { self[text: .strategy] ?? KeyframeBaker.Strategy.adaptive.rawValue }
    var framesPerSecond: Double { self[.fps] ?? 60 }
    /// The adaptive bound as a fraction of each track's travel.
    var tolerance: Double { self[.tolerance] ?? 0.001 }
    var canvas: String? { self[text: .canvas] }
    var pixelsPerUnit: Double? { self[.pixelsPerUnit] }
    var origin: String? { self[text: .origin] }
    /// A canvas's bound, in pixels.
    var pixelTolerance: Double { self[.pixelTolerance] ?? 0.5 }
    var drawsPlanes: Bool { isGiven(.drawPlanes) }
}
