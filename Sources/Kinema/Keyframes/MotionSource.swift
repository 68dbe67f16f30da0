/// A scalar motion over [0, duration] for the keyframe adapter: value, velocity and the times
/// where the velocity jumps (impacts), which must be knots.
public struct MotionSource: Sendable {
    public let duration: Double
    public let value: @Sendable (Double) -> Double
    /// The velocity at t, as a limit from the left (`fromLeft`) or from the right.
    public let velocity: @Sendable (_ t: Double, _ fromLeft: Bool) -> Double
    /// Velocity discontinuities in (0, duration), increasing.
    public let breakpoints: [Double]
    /// The extrema in (0, duration), when the source knows them exactly (a sampled trajectory: the
    /// roots of its cubic pieces' slopes); nil makes the baker search for them by sampling.
    var extrema: [Double]?

    public init(duration: Double, breakpoints: [Double] = [], value: @escaping @Sendable (Double) -> Double,
                velocity: @escaping @Sendable (Double, Bool) -> Double) throws {
        try KinemaError.requirePositive(duration, "duration")
        self.duration = duration
        self.breakpoints = breakpoints.filter { $0 > 0 && $0 < duration }.sorted()
        self.value = value
        self.velocity = velocity
    }

    /// A closed-form easing played over `duration` seconds (values 0 → 1 as the curve gives them).
    public init(easing: Easing, duration: Double = 1) throws {
        let breakpoints = easing.breakpoints  // computed once, not per evaluation
        try self.init(duration: duration, breakpoints: breakpoints.map { $0 * duration },
                      value: { easing.value(at: $0 / duration) },
                      velocity: { t, fromLeft in
                          // One-sided at a breakpoint: step a hair inside the side asked for.
                          let u = t / duration, nudge = fromLeft ? -1e-12 : 1e-12
                          let inside = breakpoints.contains { abs($0 - u) < 1e-12 } ? u + nudge : u
                          return easing.derivative(at: inside) / duration
                      })
    }

    /// One coordinate (body·dimensions + axis) of a simulated trajectory: cubic Hermite between
    /// samples (positions and velocities), split at the impacts where this coordinate's velocity
    /// jumps (with planes or other bodies, in any dimension), whose one-sided velocities come from
    /// the events.
    public init(trajectory: Trajectory, coordinate: Int = 0) throws {
        let scene = trajectory.scene
        guard (0..<scene.coordinateCount).contains(coordinate) else {
            throw KinemaError(parameter: "coordinate", value: "\(coordinate)", rule: "in 0..<\(scene.coordinateCount)")
        }
        let times = trajectory.times
        let positions = (0..<trajectory.count).map { trajectory.position($0, coordinate) }
        let velocities = (0..<trajectory.count).map { trajectory.velocity($0, coordinate) }
        // Impact knots: time, position, velocity before and after.
        var impacts: [(time: Double, x: Double, before: Double, after: Double)] = []
        let body = coordinate / scene.dimensions, axis = coordinate % scene.dimensions
        for event in trajectory.events {
            for jump in event.jumps where jump.body == body && jump.before[axis] != jump.after[axis] {
                impacts.append((event.time, jump.position[axis], jump.before[axis], jump.after[axis]))
            }
        }
        let duration = times.last ?? 0
        let knots = impacts
        let samplesPerSecond = times.count > 1 && duration > times[0] ? Double(times.count - 1) / (duration - times[0]) : 0
        @Sendable func locate(_ t: Double) -> (Double, Double, Double, Double, Double, Double) {
            // The bracketing knots (t0, x0, v0) and (t1, x1, v1), impacts included.
            // Samples are (nearly) evenly spaced: guess the interval; bisect only when the guess misses.
            let last = times.count - 1
            // Clamped as a Double first: a denormal duration makes the rate infinite, and
            // 0 × ∞ is NaN, which no Int can hold.
            let estimate = (t - times[0]) * samplesPerSecond
            let guess = estimate.isNaN ? 0 : Int(min(max(estimate, 0), Double(max(last - 1, 0))))
            var low = 0, high = last
            if times[guess] <= t && (guess + 1 >= last || times[guess + 1] > t) {
                (low, high) = (guess, min(guess + 1, last))
            } else {
                while high - low > 1 {
                    let middle = (low + high) / 2
                    if times[middle] <= t { low = middle } else { high = middle }
                }
            }
            var t0 = times[low], x0 = positions[low], v0 = velocities[low]
            var t1 = times[high], x1 = positions[high], v1 = velocities[high]
            for impact in knots where impact.time >= t0 && impact.time <= t1 {
                if impact.time <= t { (t0, x0, v0) = (impact.time, impact.x, impact.after) } else {
                    (t1, x1, v1) = (impact.time, impact.x, impact.before)
                    break
                }
            }
            return (t0, x0, v0, t1, x1, v1)
        }
        // Each cubic piece's slope is a quadratic in s: its roots are the extrema. Pieces run
        // between samples, and between samples and the impacts that fall between them.
        var extrema: [Double] = []
        for i in 1..<max(times.count, 1) where times[i] > times[i - 1] {
            let (a, b) = (times[i - 1], times[i])
            if !impacts.contains(where: { $0.time > a && $0.time < b }) {
                Hermite.appendSlopeRoots(positions[i - 1], velocities[i - 1], positions[i], velocities[i], from: a, h: b - a,
                                         to: &extrema)
            } else {
                let cuts = [a] + impacts.map(\.time).filter { $0 > a && $0 < b } + [b]
                for (p0, p1) in zip(cuts, cuts.dropFirst()) {
                    let (t0, x0, v0, t1, x1, v1) = locate(0.5 * (p0 + p1))
                    Hermite.appendSlopeRoots(x0, v0, x1, v1, from: t0, h: t1 - t0, to: &extrema)
                }
            }
            if velocities[i] == 0 && i < times.count - 1 && !impacts.contains(where: { $0.time == b }) { extrema.append(b) }
        }
        try self.init(duration: duration, breakpoints: impacts.map(\.time), value: { t in
            let (t0, x0, v0, t1, x1, v1) = locate(t)
            let h = t1 - t0
            guard h > 0 else { return x0 }
            return Hermite.value(x0, v0, x1, v1, (t - t0) / h, h)
        }, velocity: { t, fromLeft in
            if let impact = knots.first(where: { abs($0.time - t) <= 1e-12 }) { return fromLeft ? impact.before : impact.after }
            let (t0, x0, v0, t1, x1, v1) = locate(t)
            let h = t1 - t0
            guard h > 0 else { return v0 }
            return Hermite.slope(x0, v0, x1, v1, (t - t0) / h, h)
        })
        self.extrema = extrema
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
