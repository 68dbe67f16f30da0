import RealModule

// Motion's (framer-motion's) two time-based spring dialects, which are not SwiftUI's although they
// share the words: Motion's `duration` + `bounce` runs its `findSpring`, a fixed Newton iteration
// for the undamped frequency at which the envelope of the motion has fallen to 0.001 at `duration`
// (11 steps from ω = 5/duration; the iteration is reproduced here step for step, so the springs
// are Motion's own, not the exact root); `visualDuration` + `bounce` is closed form. Both describe
// a unit mass, bounce clamped so ζ = 1 − bounce lies in [0.05, 1], duration in [0.01, 10] s.

extension DampedSpring {
    /// Motion's ζ from its bounce: `1 − bounce`, clamped to [0.05, 1] as Motion clamps it.
    static func motionDampingRatio(bounce: Double) -> Double { min(max(1 - bounce, 0.05), 1) }

    /// The undamped frequency Motion's `findSpring` finds for `duration` seconds and ζ.
    static func motionFindSpringFrequency(duration: Double, dampingRatio zeta: Double) -> Double {
        let safeMin = 0.001, d = duration
        func envelope(_ w: Double) -> Double {
            if zeta < 1 {
                let decay = w * zeta
                return safeMin - decay / (w * (1 - zeta * zeta).squareRoot()) * Double.exp(-decay * d)
            }
            return -safeMin + Double.exp(-w * d) * (w * d + 1)
        }
        func derivative(_ w: Double) -> Double {
            if zeta < 1 {
                // As Motion writes it: the denominator is ω²·√(1 − ζ²), the sign from the envelope's.
                let decay = w * zeta, e = (zeta * zeta) * (w * w) * d
                let factor: Double = -envelope(w) + safeMin > 0 ? -1 : 1
                return factor * ((0 - e) * Double.exp(-decay * d)) / (w * w * (1 - zeta * zeta).squareRoot())
            }
            return Double.exp(-w * d) * ((0 - w) * (d * d))
        }
        var w = 5 / d
        for _ in 1..<12 { w -= envelope(w) / derivative(w) }
        return w
    }

    /// Creates the spring Motion runs for `transition: { type: "spring", duration, bounce }`
    /// (duration in seconds): its `findSpring`, unit mass.
    /// - Throws: `KinemaError` for a duration outside [0.01, 10] s or a non-finite bounce (Motion
    ///   clamps the duration silently; here a value it would change is refused), or when Motion's
    ///   iteration diverges (it falls back to k = 100, c = 10, which is not the spring asked for).
    public init(motionDuration duration: Double, bounce: Double) throws {
        guard duration.isFinite, duration >= 0.01, duration <= 10 else {
            throw KinemaError(
                parameter: "Motion duration", value: "\(duration)", rule: "in [0.01, 10] s, Motion's range")
        }
        try KinemaError.requireFinite(bounce, "Motion bounce")
        let zeta = Self.motionDampingRatio(bounce: bounce)
        let omega = Self.motionFindSpringFrequency(duration: duration, dampingRatio: zeta)
        guard omega.isFinite, omega > 0 else {
            throw KinemaError(
                parameter: "Motion duration and bounce", value: "\(duration), \(bounce)",
                rule: "a pair for which Motion's findSpring converges")
        }
        let stiffness = omega * omega
        try self.init(mass: 1, stiffness: stiffness, damping: zeta * 2 * stiffness.squareRoot())
    }

    /// Creates the spring Motion runs for `transition: { type: "spring", visualDuration, bounce }`:
    /// ω = 2π/(1.2·visualDuration), ζ = 1 − bounce clamped to [0.05, 1], unit mass.
    /// - Throws: `KinemaError` for a visual duration that is not finite and > 0 or a non-finite bounce.
    public init(motionVisualDuration visualDuration: Double, bounce: Double) throws {
        try KinemaError.requirePositive(visualDuration, "Motion visualDuration")
        try KinemaError.requireFinite(bounce, "Motion bounce")
        let root = 2 * .pi / (visualDuration * 1.2)
        try self.init(mass: 1, stiffness: root * root, damping: 2 * Self.motionDampingRatio(bounce: bounce) * root)
    }

    /// Motion's bounce for this spring (1 − ζ), or nil when ζ is outside Motion's [0.05, 1].
    public var motionBounce: Double? {
        let zeta = dampingRatio
        return zeta >= 0.05 && zeta <= 1 ? 1 - zeta : nil
    }

    /// Motion's `visualDuration` for this spring's unit-mass motion, 2π/(1.2·ω), when ζ is in
    /// Motion's range.
    public var motionVisualDuration: Double? {
        motionBounce == nil ? nil : 2 * .pi / (1.2 * undampedFrequency)
    }

    /// The `duration` for which Motion's `findSpring` gives this spring's unit-mass frequency
    /// (with `motionBounce`), found by bisection over Motion's [0.01, 10] s (its frequency falls as
    /// the duration grows); nil when ζ or the frequency is outside what Motion can reach.
    public var motionDuration: Double? {
        guard let bounce = motionBounce else { return nil }
        let zeta = Self.motionDampingRatio(bounce: bounce), target = undampedFrequency
        func omega(_ d: Double) -> Double { Self.motionFindSpringFrequency(duration: d, dampingRatio: zeta) }
        var low = 0.01, high = 10.0
        let (fast, slow) = (omega(low), omega(high))
        guard fast.isFinite, slow.isFinite, target <= fast * (1 + 1e-12), target >= slow * (1 - 1e-12) else {
            return nil
        }
        for _ in 0..<200 where high - low > 1e-15 * high {
            let middle = 0.5 * (low + high)
            if omega(middle) > target { low = middle } else { high = middle }
        }
        return 0.5 * (low + high)
    }
}
