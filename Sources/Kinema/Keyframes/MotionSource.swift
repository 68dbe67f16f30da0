/// A scalar motion over [0, duration] for the keyframe adapter: value, velocity and the times
/// where the velocity jumps (impacts), which must be knots.
public struct MotionSource: Sendable {
    /// The motion's length in seconds (> 0).
    public let duration: Double
    package let valueFunction: @Sendable (Double) -> Double
    package let velocityFunction: @Sendable (_ t: Double, _ fromLeft: Bool) -> Double
    /// Velocity discontinuities in (0, duration), increasing.
    public let breakpoints: [Double]
    /// The extrema in (0, duration), when the source knows them exactly (a sampled trajectory: the
    /// roots of its cubic pieces' slopes); nil makes the baker search for them by sampling.
    var extrema: [Double]?
    /// Times in (0, duration) where the velocity is infinite (circ-in-out's middle), which must
    /// be knots: no cubic piece follows a vertical tangent inside it.
    var verticalTangents: [Double] = []
    /// The curve itself when the source is a cubic-bezier easing: each piece of it is a cubic
    /// bezier, which the baker takes as it is.
    var bezier: CubicBezierTimingFunction?
    /// The samples behind `value` when the source is a trajectory: evaluated without a closure call
    /// by the baker's inner loops.
    var sampled: SampledMotion?

    /// A motion given by its value and velocity functions (seconds in, units out), with the velocity jumps it has.
    /// - Parameters:
    ///   - duration: the motion's length in seconds (> 0).
    ///   - breakpoints: times of velocity jumps; those outside (0, duration) are dropped.
    ///   - value: the value at t.
    ///   - velocity: the velocity at t, from the left when the flag is true.
    /// - Throws: `KinemaError` for a duration that is not finite and > 0.
    public init(
        duration: Double, breakpoints: [Double] = [], value: @escaping @Sendable (Double) -> Double,
        velocity: @escaping @Sendable (Double, Bool) -> Double
    ) throws {
        try KinemaError.requirePositive(duration, "duration")
        self.duration = duration
        self.breakpoints = breakpoints.filter { $0 > 0 && $0 < duration }.sorted()
        valueFunction = value
        velocityFunction = velocity
    }

    /// The value at `t` seconds.
    public func value(at t: Double) -> Double { valueFunction(t) }

    /// The velocity at `t` seconds, as a limit from the left (`fromLeft`) or from the right.
    public func velocity(at t: Double, fromLeft: Bool = false) -> Double { velocityFunction(t, fromLeft) }

    /// A closed-form easing played over `duration` seconds (values 0 → 1 as the curve gives them).
    public init(easing: Easing, duration: Double = 1) throws {
        let breakpoints = easing.breakpoints  // computed once, not per evaluation
        try self.init(
            duration: duration, breakpoints: breakpoints.map { $0 * duration },
            value: { easing.value(at: $0 / duration) },
            velocity: { t, fromLeft in
                // One-sided at a breakpoint: step a hair inside the side asked for.
                let u = t / duration, nudge = fromLeft ? -1e-12 : 1e-12
                let inside = breakpoints.contains { abs($0 - u) < 1e-12 } ? u + nudge : u
                return easing.derivative(at: inside) / duration
            })
        if case .timingFunction(let f) = easing { bezier = f }
        // An in-out easing's halves meet at 0.5, where circ-in-out's stand vertical.
        if easing.derivative(at: 0.5).isInfinite { verticalTangents = [0.5 * duration] }
    }

    /// One coordinate (body·dimensions + axis) of a simulated trajectory: cubic Hermite between
    /// samples (positions and velocities), split at the impacts where this coordinate's velocity
    /// jumps (with planes or other bodies, in any dimension), whose one-sided velocities come from
    /// the events.
    public init(trajectory: Trajectory, coordinate: Int = 0) throws {
        try self.init(trajectory: trajectory, coordinate: coordinate, scale: 1, offset: 0, knots: [])
    }

    /// The same, mapped to `offset + scale × value` (a canvas's pixels), with `knots` (times
    /// inside the motion) kept as knots by a bake besides the impacts: the times another axis's
    /// fit chose, so that both axes share them.
    init(trajectory: Trajectory, coordinate: Int, scale: Double, offset: Double, knots: [Double]) throws {
        let scene = trajectory.scene
        guard (0..<scene.coordinateCount).contains(coordinate) else {
            throw KinemaError(parameter: "coordinate", value: "\(coordinate)", rule: "in 0..<\(scene.coordinateCount)")
        }
        // Impact knots: time, position, velocity before and after.
        var impacts: [SampledMotion.Impact] = []
        let body = coordinate / scene.dimensions, axis = coordinate % scene.dimensions
        for event in trajectory.events {
            for jump in event.jumps where jump.body == body && jump.before[axis] != jump.after[axis] {
                impacts.append(
                    .init(
                        time: event.time, x: offset + scale * jump.position[axis], before: scale * jump.before[axis],
                        after: scale * jump.after[axis]))
            }
        }
        try self.init(
            sampled: SampledMotion(
                times: trajectory.times,
                positions: (0..<trajectory.count).map {
                    offset + scale * trajectory.position(atSample: $0, coordinate: coordinate)
                },
                velocities: (0..<trajectory.count).map {
                    scale * trajectory.velocity(atSample: $0, coordinate: coordinate)
                },
                impacts: impacts),
            knots: knots)
    }

    /// A motion sampled without impacts, as `init(trajectory:coordinate:)` makes it from a
    /// one-coordinate trajectory (a sweep's spring, without the scene and trajectory around it).
    @_spi(Engine) public init(times: [Double], positions: [Double], velocities: [Double]) throws {
        try self.init(sampled: SampledMotion(times: times, positions: positions, velocities: velocities, impacts: []))
    }

    /// The motion `sampled` interpolates, its impacts and `knots` the breakpoints.
    private init(sampled: SampledMotion, knots: [Double] = []) throws {
        try self.init(
            duration: sampled.times.last ?? 0,
            breakpoints: knots.isEmpty ? sampled.impacts.map(\.time) : Array(Set(sampled.impacts.map(\.time) + knots)),
            value: { sampled.value(at: $0) }, velocity: { sampled.velocity(at: $0, fromLeft: $1) })
        self.sampled = sampled
        extrema = sampled.extrema()
    }
}

extension MotionSource {
    /// How far the value at each end is from the motion's limit there (value(end) − limit): Penner's
    /// expo and elastic are pinned to exactly 0 and 1 at their ends, up to 2⁻¹⁰ off their curves.
    /// A jump is a difference a 2⁻⁵² of the duration inside that is the same 2⁻³² inside; a steep
    /// but continuous end (circ's square root, a fast spring) differs more there. 0 where there
    /// is none; always 0 for a sampled trajectory, which is continuous.
    var endJumps: (start: Double, end: Double) {
        guard sampled == nil else { return (0, 0) }
        let d = duration
        func jump(at end: Double, inward: Double) -> Double {
            let pinned = value(at: end)
            let near = pinned - value(at: end + inward * 0x1p-52 * d),
                far = pinned - value(at: end + inward * 0x1p-32 * d)
            return near != 0 && abs(far - near) <= 0.01 * abs(near) ? near : 0
        }
        return (jump(at: 0, inward: 1), jump(at: d, inward: -1))
    }
}

extension Easing {
    /// Normalized times where the curve's derivative jumps: the bounces' impacts.
    public var breakpoints: [Double] {
        switch self {
        case .penner(let p) where p.family == .bounce:
            let out = [1 / 2.75, 2 / 2.75, 2.5 / 2.75]
            switch p.mode {
            case .out: return out
            case .in: return out.map { 1 - $0 }.sorted()
            case .inOut: return (out.map { (1 - $0) / 2 } + [0.5] + out.map { 0.5 + $0 / 2 }).sorted()
            }
        case .lockwoodBounce: return [4.0 / 11, 8.0 / 11, 9.0 / 10]
        default: return []
        }
    }
}
