import RealModule

// The closed-form motion of any `AnimatableVector` (SwiftUI's `Spring` API, value for value), the
// presets and the settling-duration dialect. Every function here is exact: no integration.

extension DampedSpring {
    /// The four coefficients of the motion after `t` seconds: from a displacement `d0 = x0 − target`
    /// and a velocity `v0`,
    /// ```
    /// x(t) − target = P·d0 + Q·v0        P = e^(−λt)(c + λs),  Q = e^(−λt)s
    /// v(t)          = R·d0 + S·v0        R = −(k/m)·e^(−λt)s,  S = e^(−λt)(c − λs)
    /// ```
    /// with `c(t)`, `s(t)` those of `DampedHarmonicOscillator` (every regime, no overflow). The
    /// motion is linear in (d0, v0), so one set of coefficients moves every component of a vector.
    @usableFromInline
    struct Propagator {
        @usableFromInline let p: Double, q: Double, r: Double, s: Double

        @inlinable
        init(_ spring: DampedSpring, after t: Double) {
            let decayRate = spring.decayRate
            let omegaSquared = spring.stiffness / spring.mass
            let kappa = decayRate * decayRate - omegaSquared
            let (bc, bs) = DampedHarmonicOscillator.basis(
                decayRate: decayRate, kappa: kappa, rootAbsKappa: abs(kappa).squareRoot(), omegaSquared: omegaSquared,
                at: t)
            p = bc + decayRate * bs
            q = bs
            r = -omegaSquared * bs
            s = bc - decayRate * bs
        }

        /// The displacement and velocity after `t` from `displacement` and `velocity`.
        @inlinable
        func apply<V: SIMD>(displacement: V, velocity: V) -> (displacement: V, velocity: V) where V.Scalar == Double {
            (p * displacement + q * velocity, r * displacement + s * velocity)
        }
    }

    // MARK: SwiftUI's Spring, value for value

    /// The value after `time` seconds of a motion that starts at zero with `initialVelocity` and
    /// moves towards `target` (SwiftUI's `Spring.value(target:initialVelocity:time:)`).
    ///
    /// Exact (closed form). A numeric kernel: non-finite input gives non-finite output, no error.
    @inlinable
    public func value<V: AnimatableVector>(target: V, initialVelocity: V = V(animatableComponents: .zero), time: Double)
        -> V
    {
        let goal = target.animatableComponents
        let moved = Propagator(self, after: time).apply(
            displacement: -goal, velocity: initialVelocity.animatableComponents)
        return V(animatableComponents: goal + moved.displacement)
    }

    /// The velocity after `time` seconds of the motion `value(target:initialVelocity:time:)` describes.
    @inlinable
    public func velocity<V: AnimatableVector>(
        target: V, initialVelocity: V = V(animatableComponents: .zero), time: Double
    ) -> V {
        let moved = Propagator(self, after: time).apply(
            displacement: -target.animatableComponents, velocity: initialVelocity.animatableComponents)
        return V(animatableComponents: moved.velocity)
    }

    /// Advances `value` and `velocity` by `deltaTime` seconds towards `target`, in place (SwiftUI's
    /// `Spring.update(value:velocity:target:deltaTime:)`). Exact for any `deltaTime`, so a frame loop
    /// that calls it with uneven frame durations stays on the closed-form curve.
    @inlinable
    public func update<V: AnimatableVector>(value: inout V, velocity: inout V, target: V, deltaTime: Double) {
        let goal = target.animatableComponents
        let moved = Propagator(self, after: deltaTime).apply(
            displacement: value.animatableComponents - goal, velocity: velocity.animatableComponents)
        value = V(animatableComponents: goal + moved.displacement)
        velocity = V(animatableComponents: moved.velocity)
    }

    // MARK: Settling duration

    /// How long a motion from rest over a travel of 1 takes to stay within 0.001 of its target
    /// (`settlingDuration(epsilon:from:to:initialVelocity:)` with its defaults, which cannot fail
    /// for a valid spring); `.infinity` without damping.
    public var settlingDuration: Double {
        DampedHarmonicOscillator(
            validatedMass: mass, stiffness: stiffness, damping: damping,
            target: 1, initialPosition: 0, initialVelocity: 0
        )
        .settlingDuration(within: 0.001)
    }

    /// Creates the spring of `dampingRatio` whose motion from rest settles within `epsilon` of the
    /// travel after exactly `settlingDuration` seconds (SwiftUI's `Spring(settlingDuration:dampingRatio:epsilon:)`),
    /// with unit mass.
    ///
    /// Exact, not searched: the motion of ω0 is the motion of ω0 = 1 played ω0 times faster, so
    /// `ω0 = T₁ / settlingDuration` where T₁ is the settling duration at ω0 = 1.
    /// - Throws: `KinemaError` unless settlingDuration > 0, dampingRatio > 0 (an undamped spring
    ///   never settles) and epsilon in (0, 1) are finite.
    public init(settlingDuration: Double, dampingRatio: Double, epsilon: Double = 0.001) throws {
        try KinemaError.requirePositive(settlingDuration, "settlingDuration")
        try KinemaError.requirePositive(dampingRatio, "dampingRatio")
        guard epsilon.isFinite, epsilon > 0, epsilon < 1 else {
            throw KinemaError(parameter: "epsilon", value: "\(epsilon)", rule: "a number in (0, 1)")
        }
        let unit = DampedHarmonicOscillator(
            validatedMass: 1, stiffness: 1, damping: 2 * dampingRatio,
            target: 1, initialPosition: 0, initialVelocity: 0)
        let omega = unit.settlingDuration(within: epsilon) / settlingDuration
        try self.init(mass: 1, stiffness: omega * omega, damping: 2 * dampingRatio * omega)
    }

    // MARK: Presets (SwiftUI's, same parameters)

    /// A spring with no bounce (SwiftUI's `.smooth`: duration 0.5, bounce 0).
    public static let smooth = DampedSpring(validatedResponse: 0.5, dampingRatio: dampingRatio(bounce: 0))
    /// A spring with a little bounce (SwiftUI's `.snappy`: duration 0.5, bounce 0.15).
    public static let snappy = DampedSpring(validatedResponse: 0.5, dampingRatio: dampingRatio(bounce: 0.15))
    /// A spring with more bounce (SwiftUI's `.bouncy`: duration 0.5, bounce 0.3).
    public static let bouncy = DampedSpring(validatedResponse: 0.5, dampingRatio: dampingRatio(bounce: 0.3))

    /// `.smooth` with another duration and `extraBounce` added to its bounce of 0.
    /// - Precondition: `duration` and the sum are valid for `init(duration:bounce:)`: a preset's
    ///   values are the app's constants (as in SwiftUI, whose presets do not throw); parameters
    ///   from data go through `init(duration:bounce:)`, which throws.
    public static func smooth(duration: Double = 0.5, extraBounce: Double = 0) -> DampedSpring {
        preset(duration: duration, bounce: 0 + extraBounce)
    }

    /// `.snappy` with another duration and `extraBounce` added to its bounce of 0.15.
    /// - Precondition: as for `smooth(duration:extraBounce:)`.
    public static func snappy(duration: Double = 0.5, extraBounce: Double = 0) -> DampedSpring {
        preset(duration: duration, bounce: 0.15 + extraBounce)
    }

    /// `.bouncy` with another duration and `extraBounce` added to its bounce of 0.3.
    /// - Precondition: as for `smooth(duration:extraBounce:)`.
    public static func bouncy(duration: Double = 0.5, extraBounce: Double = 0) -> DampedSpring {
        preset(duration: duration, bounce: 0.3 + extraBounce)
    }

    private static func preset(duration: Double, bounce: Double) -> DampedSpring {
        var spring = DampedSpring.smooth
        KinemaError.precondition { spring = try DampedSpring(duration: duration, bounce: bounce) }
        return spring
    }
}
