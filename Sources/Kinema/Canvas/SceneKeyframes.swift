/// A scene baked for a canvas: one track per body, its x and y in pixels sharing their key
/// times, so that every export draws each body as one shape moving on the canvas.
///
/// The tolerance bounds the distance on the canvas between the played and the simulated
/// position: each axis is fitted to eight tenths of it over √2 (the rest is for the rounding
/// of the exported numbers and the players' own arithmetic), and the axes' knots are made the
/// same (each cut exactly at the other's). An impact whose corner shows stays a knot, so a
/// bounce keeps its corner; one a segment can pass within the bound (a resting ball's chatter,
/// bounces below a pixel) is joined into it. Each axis keeps its own cubic-bezier timing per
/// segment: a ballistic arc between two impacts (x linear in time, y a parabola) is then one
/// segment, exactly, where one easing shared by both axes would move along straight lines.
public struct SceneKeyframes: Sendable {
    /// One body on the canvas.
    public struct Body: Sendable {
        /// The body's name in the scene; the exports name its layer, element or track so.
        public let name: String
        /// In pixels.
        public let radius: Double
        /// A static body: drawn where it is, without keyframes that move it.
        public let isStatic: Bool
        /// The canvas x and y (pixels), with the same keyTimes.
        public let x: KeyframeFit
        /// The canvas y (pixels, down as screens have it), on x's keyTimes.
        public let y: KeyframeFit
        /// The most the fitted position is from the simulated one on the canvas, in pixels
        /// (the axes' errors combined).
        public var maxError: Double { (x.maxError * x.maxError + y.maxError * y.maxError).squareRoot() }
        /// The keyframes of each axis (x and y share them).
        public var keyframeCount: Int { x.keyframeCount }
    }

    /// A plane drawn on the canvas: the part of its surface the canvas shows, seen edge-on.
    public struct Line: Sendable {
        /// The plane's name in the scene.
        public let name: String
        /// One end, in pixels: the left one (the top one where the line is upright).
        public let from: SIMD2<Double>
        /// The other end, in pixels.
        public let to: SIMD2<Double>
    }

    /// How the scene's units map to the canvas.
    public let mapping: CanvasMapping
    /// Pixels.
    public let tolerance: Double
    /// The motion's length in seconds.
    public let duration: Double
    /// One track per body of the scene, in the scene's order.
    public let bodies: [Body]
    /// The scene's planes that cross the canvas edge-on, in the scene's order, once drawn
    /// (`drawPlanes(of:)`); the exports draw them as lines beneath the bodies.
    public private(set) var planes: [Line] = []
    /// How the exports print its numbers (default: to the tolerance).
    public var rounding: KeyframeFit.Rounding = .toBound

    /// The finest tolerance a canvas takes, relative to its largest pixel coordinate.
    public static let resolution = 1e-9

    /// Bakes every body of `trajectory` (a scene of 2 or 3 dimensions: x and y are drawn) on
    /// `mapping`'s canvas, adaptive to `tolerance` pixels, or `uniform` at `framesPerSecond`.
    /// - Throws: `KinemaError` for a scene of one dimension, a non-positive tolerance or rate, a
    ///   tolerance finer than the canvas's positions can be held (below `resolution` × the largest
    ///   pixel coordinate a body reaches), or a `turningPoints` strategy (it has no bound to share
    ///   knots under).
    public init(
        trajectory: Trajectory, mapping: CanvasMapping, tolerance: Double = 0.5,
        strategy: KeyframeBaker.Strategy = .adaptive, framesPerSecond: Double = 60
    ) throws {
        let scene = trajectory.scene, d = scene.dimensions
        guard d >= 2 else {
            throw KinemaError(parameter: "dimensions", value: "\(d)", rule: "2 or 3 for a canvas (x and y)")
        }
        guard strategy != .turningPoints else {
            throw KinemaError(parameter: "strategy", value: "turning-points", rule: "adaptive or uniform on a canvas")
        }
        try KinemaError.requirePositive(tolerance, "tolerance")
        try KinemaError.requirePositive(framesPerSecond, "fps")
        let s = mapping.pixelsPerUnit
        // A bound below the positions' rounding is one no keyframes meet: the bake would run to
        // its keyframe limit (10⁴ knots, a minute's fitting) and report an error of ∞.
        var reach = max(mapping.width, mapping.height)
        for sample in 0..<trajectory.count {
            for b in scene.bodies.indices {
                let x = trajectory.position(atSample: sample, coordinate: b * d)
                let y = trajectory.position(atSample: sample, coordinate: b * d + 1)
                reach = max(reach, abs(mapping.x(x)), abs(mapping.y(y)))
            }
        }
        guard tolerance >= Self.resolution * reach else {
            throw KinemaError(
                parameter: "tolerance", value: "\(tolerance) px",
                rule: "at least \(Self.resolution) × the largest pixel coordinate a body reaches (\(reach) px)")
        }
        var bodies: [Body] = []
        for (b, body) in scene.bodies.enumerated() {
            func source(_ axis: Int, _ knots: [Double]) throws -> MotionSource {
                try MotionSource(
                    trajectory: trajectory, coordinate: b * d + axis, scale: axis == 0 || !mapping.flipsY ? s : -s,
                    offset: axis == 0 ? mapping.origin.x : mapping.origin.y, knots: knots)
            }
            let (x, y): (KeyframeFit, KeyframeFit)
            if strategy == .uniform {
                (x, y) = (
                    try KeyframeBaker.bake(try source(0, []), strategy: .uniform, framesPerSecond: framesPerSecond),
                    try KeyframeBaker.bake(try source(1, []), strategy: .uniform, framesPerSecond: framesPerSecond)
                )
            } else {
                (x, y) = try Self.sharedKnots(0.8 * tolerance / 2.squareRoot(), source)
            }
            bodies.append(
                Body(name: body.name, radius: s * body.radius, isStatic: body.isStatic, x: x, y: y))
        }
        (self.mapping, self.tolerance, self.duration, self.bodies) = (
            mapping, tolerance, trajectory.times.last ?? 0, bodies
        )
    }

    /// Draws `scene`'s planes that cross the canvas edge-on as lines (`CanvasMapping.segment(of:)`),
    /// each from its left end (its top end where it is upright).
    public mutating func drawPlanes(of scene: PhysicsScene) {
        planes = scene.planes.compactMap { plane in
            mapping.segment(of: plane).map { a, b in
                let ordered = a.x < b.x || (a.x == b.x && a.y <= b.y)
                return Line(name: plane.name, from: ordered ? a : b, to: ordered ? b : a)
            }
        }
    }

    /// x and y fitted to `tolerance` each, then both put on the union of their knots: a segment
    /// the other axis splits is cut there exactly (de Casteljau: the piece of a cubic is a cubic,
    /// with the error of the whole at most), so neither is refitted and neither gets worse.
    static func sharedKnots(
        _ tolerance: Double, _ source: (Int, [Double]) throws -> MotionSource
    ) throws -> (KeyframeFit, KeyframeFit) {
        let sources = [try source(0, []), try source(1, [])]
        let own = try sources.enumerated().map {
            try KeyframeBaker.bake($1, absoluteTolerance: tolerance, keyPath: $0 == 0 ? "x" : "y")
        }
        let keyTimes = Array(Set(own[0].animation.keyTimes + own[1].animation.keyTimes)).sorted()
        let shared = try zip(own, sources).map { fit, source in
            let animation = try on(keyTimes, fit.animation, source)
            // Cut pieces keep their curve, so the whole's error (measured on the pieces it was
            // fitted on) still bounds them: a joined segment's few samples could miss a bounce.
            return KeyframeFit(
                animation: animation, maxError: max(fit.maxError, KeyframeBaker.maxError(animation, source)),
                controlsOutsideUnitInterval: animation.timingFunctions.reduce(0) {
                    $0 + $1.controlsOutsideUnitInterval
                },
                bound: fit.bound, endJumps: (0, 0))
        }
        return (shared[0], shared[1])
    }

    /// `animation` on `keyTimes` (a superset of its own): each of its segments cut at the new
    /// times inside it. A piece whose cut controls are not a timing function (an x-control
    /// outside [0, 1], or no change of value) takes the Hermite controls of `source` instead.
    static func on(_ keyTimes: [Double], _ animation: KeyframeAnimation, _ source: MotionSource) throws
        -> KeyframeAnimation
    {
        let own = animation.keyTimes, d = animation.duration
        var values: [[Double]] = [animation.values[0]], functions: [CubicBezierTimingFunction] = []
        var i = 0
        for (a, b) in zip(keyTimes, keyTimes.dropFirst()) {
            while i + 1 < own.count - 1 && own[i + 1] <= a { i += 1 }
            let f = animation.timingFunctions[i], k0 = own[i], k1 = own[i + 1]
            let v0 = animation.values[i][0], v1 = animation.values[i + 1][0]
            let u0 = (a - k0) / (k1 - k0), u1 = (b - k0) / (k1 - k0)
            if u0 == 0 && u1 == 1 {
                functions.append(f)
                values.append([v1])
                continue
            }
            let s0 = u0 <= 0 ? 0 : f.parameter(at: u0), s1 = u1 >= 1 ? 1 : f.parameter(at: u1)
            let piece = Self.piece(f, s0, s1)
            let y0 = piece.start.y, y1 = piece.end.y
            let end = v0 + (v1 - v0) * y1
            if let function = piece.function, abs(y1 - y0) > 1e-9 {
                functions.append(function)
            } else {
                functions.append(KeyframeBaker.hermite(source, a * d, b * d))
            }
            values.append([b == 1 ? v1 : end])
        }
        return try KeyframeAnimation(
            keyPath: animation.keyPath, values: values, keyTimes: keyTimes, timingFunctions: functions, duration: d)
    }

    /// The piece of `f`'s curve between parameters `s0` and `s1` (de Casteljau), normalized to a
    /// timing function; nil where its x-controls fall outside [0, 1].
    static func piece(_ f: CubicBezierTimingFunction, _ s0: Double, _ s1: Double) -> (
        function: CubicBezierTimingFunction?, start: SIMD2<Double>, end: SIMD2<Double>
    ) {
        func split(_ p: [SIMD2<Double>], _ s: Double) -> (left: [SIMD2<Double>], right: [SIMD2<Double>]) {
            let a = p[0] + s * (p[1] - p[0]), b = p[1] + s * (p[2] - p[1]), c = p[2] + s * (p[3] - p[2])
            let ab = a + s * (b - a), bc = b + s * (c - b), m = ab + s * (bc - ab)
            return ([p[0], a, ab, m], [m, bc, c, p[3]])
        }
        let polygon = [SIMD2(0, 0), SIMD2(f.x1, f.y1), SIMD2(f.x2, f.y2), SIMD2(1, 1)]
        let head = split(polygon, s1).left
        let curve = s0 <= 0 ? head : split(head, s0 / s1).right
        let start = curve[0], end = curve[3], size = end - start
        guard size.x > 0, size.y != 0 else { return (nil, start, end) }
        let c1 = (curve[1] - start) / size, c2 = (curve[2] - start) / size
        guard c1.x >= -1e-12, c1.x <= 1 + 1e-12, c2.x >= -1e-12, c2.x <= 1 + 1e-12,
            let function = try? CubicBezierTimingFunction(
                x1: min(max(c1.x, 0), 1), y1: c1.y, x2: min(max(c2.x, 0), 1), y2: c2.y)
        else { return (nil, start, end) }
        return (function, start, end)
    }
}
