extension MotionSource {
    /// A spring's motion from `start` to `target`, straight from its closed form (no simulation),
    /// over `duration`: by default until it settles within `epsilon` × travel of the target.
    ///
    /// It ends exactly on `target`, so an animation baked from it hands over to the model value
    /// without a step: the closed form's residual at the end (at most `epsilon` × travel at the
    /// settling duration) is taken out gradually, times a quintic smoothstep of t/duration, which
    /// leaves the start and its velocity as they are. The source is within that residual of the
    /// closed form everywhere.
    /// ```swift
    /// let source = try MotionSource(spring: .bouncy, from: 0, to: 300)   // ends at 300 when it settles
    /// let fit = try KeyframeBaker.bake(source, tolerance: 0.001)
    /// ```
    /// - Throws: `KinemaError` for non-finite ends or velocity, a non-positive `epsilon` or
    ///   `duration`, or an undamped spring without a `duration` (it never settles).
    public init(
        spring: DampedSpring, from start: Double = 0, to target: Double = 1, initialVelocity: Double = 0,
        duration: Double? = nil, epsilon: Double = 0.001
    ) throws {
        let motion = try spring.motion(from: start, to: target, initialVelocity: initialVelocity)
        let d =
            try duration
            ?? spring.settlingDuration(
                epsilon: epsilon, from: start, to: target, initialVelocity: initialVelocity)
        guard d.isFinite else {
            throw KinemaError(
                parameter: "duration", value: "\(d)", rule: "given for a spring that never settles (no damping)")
        }
        try KinemaError.requirePositive(d, "duration")
        try self.init(
            endingOn: target, duration: d, position: { motion.position(at: $0) }, velocity: { motion.velocity(at: $0) })
    }

    /// A decay (a flick's deceleration) from `start` at `velocity`, straight from its closed form,
    /// over `duration`: by default until it is within `epsilon` × travel of where it comes to rest,
    /// `ln(1/epsilon)/rate`. Like the spring's, it ends exactly on that rest point
    /// (`Decay.projectedEnd`): the residual there is taken out times a quintic smoothstep, so the
    /// source is within `epsilon` × travel of the closed form everywhere.
    /// - Throws: `KinemaError` for non-finite ends or velocity, a non-positive `epsilon` or
    ///   `duration`, or no velocity (there is no motion to bake).
    public init(
        decay: Decay, from start: Double = 0, velocity: Double, duration: Double? = nil, epsilon: Double = 0.001
    ) throws {
        try KinemaError.requireFinite(start, "start")
        try KinemaError.requireFinite(velocity, "velocity")
        try KinemaError.requirePositive(epsilon, "epsilon")
        guard velocity != 0 else {
            throw KinemaError(parameter: "velocity", value: "0.0", rule: "non-zero: a decay without velocity stays put")
        }
        let d = duration ?? -Double.log(min(epsilon, 1)) / decay.rate
        try KinemaError.requirePositive(d, "duration")
        try self.init(
            endingOn: decay.projectedEnd(from: start, velocity: velocity), duration: d,
            position: { decay.position(from: start, velocity: velocity, after: $0) },
            velocity: { decay.velocity(velocity, after: $0) })
    }

    /// A ball dropped from `height` onto a floor at 0 under `gravity`, bouncing with `restitution`
    /// until a bounce leaves slower than `restVelocity` (the rule of `PhysicsScene.drop`), from the
    /// closed form: parabolas between impacts at the times of the geometric series, each impact a
    /// breakpoint. It lasts until the ball rests on the floor unless `duration` is given.
    /// - Throws: `KinemaError` for a negative height, a non-positive gravity, a restitution
    ///   outside [0, 1), a negative rest velocity or a non-positive duration.
    public init(
        dropFrom height: Double, gravity: Double = 9.81, restitution: Double = 0.5,
        restVelocity: Double = PhysicsScene.defaultRestVelocity, duration: Double? = nil
    ) throws {
        try KinemaError.requireNonNegative(height, "height")
        try KinemaError.requirePositive(gravity, "gravity")
        try KinemaError.requireNonNegative(restVelocity, "restVelocity")
        guard restitution >= 0, restitution < 1 else {
            throw KinemaError(
                parameter: "restitution", value: "\(restitution)", rule: "in [0, 1) (an elastic ball never rests)")
        }
        // Impact k at impacts[k], leaving upwards at speeds[k] (0 once it rests).
        let restSpeed = PhysicsScene.restSpeed(restVelocity: restVelocity)
        var impacts = [(2 * height / gravity).squareRoot()], speeds: [Double] = []
        var speed = gravity * impacts[0] * restitution
        while speed >= restSpeed, impacts.count < KeyframeBaker.keyframeLimit {
            speeds.append(speed)
            impacts.append(impacts[impacts.count - 1] + 2 * speed / gravity)
            speed *= restitution
        }
        guard speed < restSpeed else {
            throw KinemaError(
                parameter: "restVelocity", value: "\(restVelocity)",
                rule: "high enough that the ball rests within \(KeyframeBaker.keyframeLimit) bounces")
        }
        speeds.append(0)
        let d = duration ?? impacts[impacts.count - 1]
        try KinemaError.requirePositive(d, "duration")
        let times = impacts, leaving = speeds
        /// The flight at `t`: its start, and the height and velocity it leaves the floor with.
        @Sendable func flight(_ t: Double, fromLeft: Bool) -> (start: Double, x: Double, v: Double) {
            // The first impact at or after t (before it when fromLeft at an impact).
            var low = 0, high = times.count
            while low < high {
                let middle = (low + high) / 2
                if fromLeft ? times[middle] < t : times[middle] <= t { low = middle + 1 } else { high = middle }
            }
            return low == 0 ? (0, height, 0) : (times[low - 1], 0, leaving[low - 1])
        }
        try self.init(
            duration: d, breakpoints: times,
            value: { t in
                let (t0, x0, v0) = flight(t, fromLeft: false), s = t - t0
                return max(0, x0 + v0 * s - 0.5 * gravity * s * s)
            },
            velocity: { t, fromLeft in
                let (t0, _, v0) = flight(t, fromLeft: fromLeft)
                return v0 == 0 && t0 > 0 ? 0 : v0 - gravity * (t - t0)
            })
    }

    /// A closed form over [0, duration] that ends exactly on `end`: its residual there is taken
    /// out times a quintic smoothstep of t/duration, which leaves the start and its velocity as
    /// they are and moves no value by more than the residual.
    private init(
        endingOn end: Double, duration d: Double, position: @escaping @Sendable (Double) -> Double,
        velocity: @escaping @Sendable (Double) -> Double
    ) throws {
        let residual = position(d) - end
        try self.init(
            duration: d,
            value: { t in t >= d ? end : position(t) - residual * Self.smoothstep(t / d) },
            velocity: { t, _ in velocity(t) - residual * Self.smoothstepSlope(min(t / d, 1)) / d })
    }

    /// `u³(10 − 15u + 6u²)`: 0 at 0 and 1 at 1, its first and second derivatives 0 at both.
    static func smoothstep(_ u: Double) -> Double { u * u * u * (10 + u * (-15 + 6 * u)) }
    static func smoothstepSlope(_ u: Double) -> Double { 30 * u * u * (1 - u) * (1 - u) }
}
