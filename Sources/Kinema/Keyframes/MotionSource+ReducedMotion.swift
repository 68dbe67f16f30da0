extension MotionSource {
    /// The reduced-motion form of `source`, for users who ask the system to reduce motion
    /// (`prefers-reduced-motion: reduce`, Reduce Motion): the same start and end over the same
    /// duration, along a critically damped spring (damping ratio 1) that settles within
    /// `epsilon` × travel by the end, so it neither overshoots nor bounces. It ends exactly on
    /// the end value (the residual taken out as `init(spring:)` does); a motion that ends where
    /// it starts stays there.
    /// - Throws: `KinemaError` for an `epsilon` outside (0, 1).
    public init(reducedMotionOf source: MotionSource, epsilon: Double = 0.001) throws {
        let start = source.value(at: 0), end = source.value(at: source.duration), d = source.duration
        let spring = try DampedSpring(settlingDuration: d, dampingRatio: 1, epsilon: epsilon)
        guard end != start else {
            try self.init(duration: d, value: { _ in start }, velocity: { _, _ in 0 })
            return
        }
        try self.init(spring: spring, from: start, to: end, duration: d)
    }
}
