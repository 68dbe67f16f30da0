import RealModule

// Every parameter dialect, both ways. Dialects without a mass (Rebound, react-spring, POP, Origami,
// Android) describe a unit mass; converting a spring with m ≠ 1 to them gives the unit-mass spring
// with the same motion (k/m, c/m).

extension DampedSpring {
    // MARK: SwiftUI: response and damping ratio; duration and bounce

    /// Creates a spring from SwiftUI's `response` (the undamped period, s) and `dampingRatio`:
    /// `k = (2π/response)²·m`, `c = 4π·ζ·m/response`.
    /// - Throws: `KinemaError` unless response > 0 and dampingRatio ≥ 0 are finite.
    public init(response: Double, dampingRatio: Double, mass: Double = 1) throws {
        try KinemaError.requirePositive(response, "response")
        try KinemaError.requireNonNegative(dampingRatio, "dampingRatio")
        try KinemaError.requirePositive(mass, "mass")
        let omega = 2 * .pi / response
        guard (omega * omega * mass).isFinite, (2 * dampingRatio * omega * mass).isFinite else {
            throw KinemaError(
                parameter: "response", value: "\(response)",
                rule: "large enough that the stiffness (2π/response)²·mass and the damping are finite")
        }
        try self.init(mass: mass, stiffness: omega * omega * mass, damping: 2 * dampingRatio * omega * mass)
    }

    /// `init(response:dampingRatio:mass:)` for values known to be valid (the presets).
    init(validatedResponse response: Double, dampingRatio: Double, mass: Double = 1) {
        let omega = 2 * .pi / response
        self.init(validatedMass: mass, stiffness: omega * omega * mass, damping: 2 * dampingRatio * omega * mass)
    }

    /// SwiftUI's damping ratio for a bounce in (−1, 1]: `1 − bounce`, or `1/(1 + bounce)` below 0.
    static func dampingRatio(bounce: Double) -> Double { bounce >= 0 ? 1 - bounce : 1 / (1 + bounce) }

    /// Creates a spring from SwiftUI's `Spring(duration:bounce:)`: the duration is the response,
    /// `ζ = 1 − bounce` for bounce ≥ 0 and `1/(1 + bounce)` for bounce < 0.
    /// - Throws: `KinemaError` unless duration > 0 and bounce in (−1, 1].
    public init(duration: Double, bounce: Double, mass: Double = 1) throws {
        try KinemaError.requirePositive(duration, "duration")
        guard bounce.isFinite, bounce > -1, bounce <= 1 else {
            throw KinemaError(parameter: "bounce", value: "\(bounce)", rule: "a number in (−1, 1]")
        }
        do {
            try self.init(response: duration, dampingRatio: Self.dampingRatio(bounce: bounce), mass: mass)
        } catch let error as KinemaError where error.parameter == "response" {
            // SwiftUI's duration is the response: the message names what the caller wrote.
            throw KinemaError(
                parameter: "duration", value: error.value, rule: error.rule.replacing("response", with: "duration"))
        }
    }

    /// SwiftUI's response: the undamped period `2π/ω0` (s).
    public var response: Double { 2 * .pi / undampedFrequency }

    /// SwiftUI's bounce: `1 − ζ` when ζ ≤ 1, `1/ζ − 1` (negative) when overdamped.
    public var bounce: Double {
        let zeta = dampingRatio
        return zeta <= 1 ? 1 - zeta : 1 / zeta - 1
    }

    // MARK: Rebound, react-spring: tension and friction (unit mass)

    /// Creates a spring from Rebound's or react-spring's tension and friction (unit mass):
    /// tension is the stiffness, friction the damping.
    public init(tension: Double, friction: Double) throws {
        guard tension.isFinite, tension > 0 else {
            throw KinemaError(parameter: "tension", value: "\(tension)", rule: "a finite number > 0")
        }
        try KinemaError.requireNonNegative(friction, "friction")
        try self.init(mass: 1, stiffness: tension, damping: friction)
    }

    /// The unit-mass stiffness `k/m` (Rebound's and react-spring's tension).
    public var tension: Double { stiffness / mass }
    /// The unit-mass damping `c/m` (Rebound's and react-spring's friction).
    public var friction: Double { damping / mass }

    // MARK: Origami (Quartz Composer) tension and friction

    /// Creates a spring from Origami's tension and friction, as Rebound converts them:
    /// `tension = (T − 30)·3.62 + 194`, `friction = (F − 8)·3 + 25`. Origami 40/7 is Rebound's
    /// default, tension 230.2 and friction 22.
    public init(origamiTension: Double, origamiFriction: Double) throws {
        try KinemaError.requireFinite(origamiTension, "origamiTension")
        try KinemaError.requireFinite(origamiFriction, "origamiFriction")
        let tension = (origamiTension - 30) * 3.62 + 194
        let friction = (origamiFriction - 8) * 3 + 25
        guard tension > 0 else {
            throw KinemaError(
                parameter: "origamiTension", value: "\(origamiTension)",
                rule: "greater than \(30 - 194 / 3.62), so that the tension is positive")
        }
        guard friction >= 0 else {
            throw KinemaError(
                parameter: "origamiFriction", value: "\(origamiFriction)",
                rule: "at least \(8 - 25.0 / 3), so that the friction is not negative")
        }
        try self.init(tension: tension, friction: friction)
    }

    /// Origami's tension for this spring (unit mass).
    public var origamiTension: Double { (tension - 194) / 3.62 + 30 }
    /// Origami's friction for this spring (unit mass).
    public var origamiFriction: Double { (friction - 25) / 3 + 8 }

    // MARK: POP / Rebound bounciness and speed

    /// Creates a spring from POP's (and Rebound's `fromBouncinessAndSpeed`) bounciness and speed,
    /// through Rebound's `BouncyConversion` into Origami tension and friction.
    public init(bounciness: Double, speed: Double) throws {
        try KinemaError.requireNonNegative(bounciness, "bounciness")
        try KinemaError.requireNonNegative(speed, "speed")
        let b = BouncyConversion.bouncinessFraction(bounciness)
        let origamiTension = BouncyConversion.origamiTension(speed: speed)
        let origamiFriction = BouncyConversion.mix(
            2 * b - b * b, from: BouncyConversion.frictionWithoutBounce(origamiTension), to: 0.01)
        try self.init(origamiTension: origamiTension, origamiFriction: origamiFriction)
    }

    /// POP's speed for this spring (unit mass).
    public var speed: Double { (origamiTension - 0.5) / 199.5 * 20 * 1.7 }

    /// POP's bounciness for this spring (unit mass), or nil when the spring is too damped for any
    /// bounciness ≥ 0 to reach it or too lively for bounciness to describe it.
    public var bounciness: Double? {
        let start = BouncyConversion.frictionWithoutBounce(origamiTension)
        let q = (origamiFriction - start) / (0.01 - start)
        guard q.isFinite, q >= 0, q <= 1 else { return nil }
        let b = 1 - (1 - q).squareRoot()
        return b / 0.8 * 20 * 1.7
    }

    // MARK: Android: stiffness and damping ratio (unit mass)

    /// Creates a spring from Android's `SpringForce` stiffness and damping ratio (unit mass by
    /// default): `c = 2ζ·√(k·m)`.
    public init(stiffness: Double, dampingRatio: Double, mass: Double = 1) throws {
        try KinemaError.requirePositive(stiffness, "stiffness")
        try KinemaError.requireNonNegative(dampingRatio, "dampingRatio")
        try KinemaError.requirePositive(mass, "mass")
        try self.init(mass: mass, stiffness: stiffness, damping: 2 * dampingRatio * (stiffness * mass).squareRoot())
    }

    // MARK: The damped cosine (Lockwood's jelly spring)

    /// The spring whose motion from 0 to 1, started with velocity `a`, is `1 − e^(−a t)cos(b t)`:
    /// m = 1, k = a² + b², c = 2a.
    public init(dampedCosine curve: DampedCosine) throws {
        let a = curve.decay, b = curve.frequency
        try self.init(mass: 1, stiffness: a * a + b * b, damping: 2 * a)
    }

    /// The damped cosine `(a, b) = (λ, ωd)` of this spring, when underdamped (unit-mass equivalent).
    public var dampedCosine: DampedCosine? {
        guard regime == .underdamped else { return nil }
        return try? DampedCosine(decay: decayRate, frequency: dampedFrequency)
    }
}

/// Rebound's `BouncyConversion`, from POP's bounciness and speed to Origami tension and friction.
enum BouncyConversion {
    static func bouncinessFraction(_ bounciness: Double) -> Double { bounciness / 1.7 / 20 * 0.8 }

    static func origamiTension(speed: Double) -> Double { 0.5 + speed / 1.7 / 20 * 199.5 }

    static func mix(_ t: Double, from start: Double, to end: Double) -> Double { t * end + (1 - t) * start }

    /// Origami friction that just avoids bounce at an Origami tension (Rebound's cubic fits).
    static func frictionWithoutBounce(_ tension: Double) -> Double {
        let x = tension
        if x <= 18 { return 0.0007 * x * x * x - 0.031 * x * x + 0.64 * x + 1.28 }
        if x <= 44 { return 0.000044 * x * x * x - 0.006 * x * x + 0.36 * x + 2 }
        return 0.00000045 * x * x * x - 0.000332 * x * x + 0.1078 * x + 5.84
    }
}
