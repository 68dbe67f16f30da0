/// A spring baked once into two curves from which a player composes any motion of it, retargeted
/// mid-flight or handed a gesture's velocity, with position and velocity kept.
///
/// A spring is linear: the motion from `x₀` at `v₀` toward `T` is `T + (x₀ − T)·(1 − s(t)) + v₀·g(t)`,
/// where `s` is its unit step response (0 at rest to 1) and `g` its unit impulse response (0 to 0,
/// leaving at velocity 1). When the target moves from A to B at t₁, the motion toward A continues
/// and `(A − B)·(1 − s(t − t₁))` is added on top of the new target B: an offset that starts at
/// A − B with zero velocity and ends at 0, so position and velocity stay continuous and the sum is
/// the retargeted spring exactly. A release adds `v·g(t − t₁)`. Every player that adds animations
/// to a base value plays this: Core Animation's `isAdditive` (the model value set to the new
/// target), the Web Animations API's `composite: 'add'` (kinema-spring.js).
///
/// ```swift
/// let baked = try RetargetableSpring(spring: .bouncy)
/// let offset = try baked.retargetOffset(by: 300 - 100, keyPath: "position.x")  // −200 → 0, additive
/// ```
public struct RetargetableSpring: Sendable {
    /// The spring whose responses are baked.
    public let spring: DampedSpring
    /// Each response within `tolerance` of its closed form (the step response) or of
    /// `tolerance` × its range (the impulse response).
    public let tolerance: Double
    /// The unit step response `s(t)`, from 0 at rest to exactly 1 at its end.
    public let step: KeyframeFit
    /// The unit impulse response `g(t)`, from 0 at velocity 1 back to exactly 0 at its end.
    public let impulse: KeyframeFit
    /// The reduced-motion form of `step` (`MotionSource(reducedMotionOf:)`): critically damped,
    /// from 0 to 1 without overshoot over the same duration. Velocity is not handed over under
    /// reduced motion: a flick would overshoot.
    public let reducedStep: KeyframeFit
    /// The most `step` (`stepError`) and `impulse` (`impulseError`) are from the closed-form
    /// responses anywhere: the fit's error plus the settling residual taken out at the end.
    public let stepError: Double
    /// The most `impulse` is from the closed-form impulse response anywhere (see `stepError`).
    public let impulseError: Double
    /// How the exports print the responses' numbers: to each response's bound (the default; the
    /// stated errors then include what the rounding can add), or every digit (`.none`).
    public var rounding: KeyframeFit.Rounding = .toBound

    /// Bakes `spring`'s responses to `tolerance`: each response settles to a tenth of it (the
    /// residual there is taken out, `MotionSource(spring:)`) and is fitted to nine tenths.
    /// - Throws: `KinemaError` for a tolerance outside (0, 1) or a spring without damping (it
    ///   never settles, so no finite curve holds its responses).
    public init(spring: DampedSpring, tolerance: Double = 0.001) throws {
        guard tolerance > 0, tolerance < 1 else {
            throw KinemaError(parameter: "tolerance", value: "\(tolerance)", rule: "a number in (0, 1)")
        }
        guard spring.damping > 0 else {
            throw KinemaError(
                parameter: "damping", value: "\(spring.damping)",
                rule: "> 0 for a retargetable spring (an undamped one never settles)")
        }
        let settling = 0.1 * tolerance, fitted = 0.9 * tolerance
        let stepDuration = try spring.settlingDuration(epsilon: settling)
        let stepSource = try MotionSource(spring: spring, from: 0, to: 1, duration: stepDuration)
        // The impulse response's own scale is its peak: it settles within a tenth of the tolerance of it.
        let unitImpulse = try spring.motion(from: 0, to: 0, initialVelocity: 1)
        var peak = 0.0
        for i in 1...2_000 { peak = max(peak, abs(unitImpulse.position(at: stepDuration * Double(i) / 2_000))) }
        let impulseDuration = try spring.settlingDuration(epsilon: settling * peak, from: 0, to: 0, initialVelocity: 1)
        let impulseSource = try MotionSource(
            spring: spring, from: 0, to: 0, initialVelocity: 1, duration: max(impulseDuration, stepDuration))
        self.spring = spring
        self.tolerance = tolerance
        step = try KeyframeBaker.bake(stepSource, tolerance: fitted, keyPath: "step")
        impulse = try KeyframeBaker.bake(impulseSource, tolerance: fitted, keyPath: "impulse")
        reducedStep = try KeyframeBaker.bake(
            try MotionSource(reducedMotionOf: stepSource), tolerance: fitted, keyPath: "reduced")
        let closedStep = try spring.motion(from: 0, to: 1)
        stepError = step.maxError + abs(closedStep.position(at: stepDuration) - 1)
        impulseError = impulse.maxError + abs(unitImpulse.position(at: impulseSource.duration))
    }

    /// The additive offset that moves the target by `delta` now: `−delta·(1 − s(t))`, from
    /// −delta to 0. Played on top of the new target (Core Animation: the model value set to it,
    /// `isAdditive`), beside what was already playing, it continues the motion with its position
    /// and velocity. Within `delta` × `stepError` of the closed form.
    /// - Throws: `KinemaError` for a non-finite delta.
    public func retargetOffset(by delta: Double, keyPath: String = "value") throws -> KeyframeAnimation {
        try KinemaError.requireFinite(delta, "delta")
        return try step.animation.mapped(keyPath: keyPath) { delta * ($0 - 1) }
    }

    /// The additive offset that adds `velocity` (units per second) now: `velocity·g(t)`, from 0
    /// to 0. With `retargetOffset(by: target − position)` it hands a gesture's release over to
    /// the spring. Within `velocity` × `impulseError` of the closed form.
    /// - Throws: `KinemaError` for a non-finite velocity.
    public func releaseOffset(velocity: Double, keyPath: String = "value") throws -> KeyframeAnimation {
        try KinemaError.requireFinite(velocity, "velocity")
        return try impulse.animation.mapped(keyPath: keyPath) { velocity * $0 }
    }

    /// The most a motion composed of target moves `moves` and velocity hand-offs `velocities`
    /// can be from the closed-form spring: each offset's error scaled by its size, summed.
    public func errorBound(moves: [Double], velocities: [Double] = []) -> Double {
        moves.reduce(0) { $0 + abs($1) * stepError } + velocities.reduce(0) { $0 + abs($1) * impulseError }
    }
}

extension KeyframeAnimation {
    /// The same keyframes with every value component mapped by `transform` (an affine map keeps
    /// each segment's normalized timing function, so the timing functions are kept).
    func mapped(keyPath: String, _ transform: (Double) -> Double) throws -> KeyframeAnimation {
        try KeyframeAnimation(
            keyPath: keyPath, values: values.map { $0.map(transform) }, keyTimes: keyTimes,
            timingFunctions: timingFunctions, calculationMode: calculationMode, duration: duration,
            tensionValues: tensionValues, continuityValues: continuityValues, biasValues: biasValues)
    }
}

extension RetargetableSpring {
    /// A response as the exports print it, with `rounding`, and its stated error against the
    /// closed form: `error` plus what the rounding can add.
    func exported(_ fit: KeyframeFit, error: Double) -> (fit: KeyframeFit, error: Double) {
        var fit = fit
        fit.rounding = rounding
        return (fit, error + fit.precision.roundingError)
    }
}
