import RealModule

/// The damped cosine `1 − e^(−a·t)·cos(b·t)`: the "jelly" spring of Lockwood's *iOS Core Animation: Advanced Techniques* (ch. 10) with a = 5, b = 30.
///
/// It is exactly the motion of a spring with m = 1, k = a² + b², c = 2a, starting at 0 towards 1
/// with velocity +a (see `DampedSpring.init(dampedCosine:)`).
public struct DampedCosine: EasingCurve, Hashable {
    /// The decay rate `a` (1/s).
    public let decay: Double
    /// The angular frequency `b` (rad/s).
    public let frequency: Double

    /// Creates `1 − e^(−decay·t)·cos(frequency·t)`.
    /// - Throws: `KinemaError` unless `decay` > 0 and `frequency` ≥ 0 are finite and the spring's
    ///   stiffness a² + b² is finite (so `spring` always exists).
    public init(decay: Double, frequency: Double) throws {
        try KinemaError.requirePositive(decay, "damped-cosine decay a")
        try KinemaError.requireNonNegative(frequency, "damped-cosine frequency b")
        try KinemaError.requirePositive(decay * decay + frequency * frequency, "damped-cosine a² + b²")
        self.decay = decay
        self.frequency = frequency
    }

    /// The jelly spring, `1 − e^(−5t)·cos(30t)`.
    public static let jelly = DampedCosine(validatedDecay: 5, frequency: 30)

    init(validatedDecay decay: Double, frequency: Double) {
        self.decay = decay
        self.frequency = frequency
    }

    public func value(at t: Double) -> Double {
        1 - Double.exp(-decay * t) * Double.cos(frequency * t)
    }

    public func derivative(at t: Double) -> Double {
        Double.exp(-decay * t) * (decay * Double.cos(frequency * t) + frequency * Double.sin(frequency * t))
    }

    /// The spring whose motion from 0 to 1 this curve is.
    public var spring: DampedSpring {
        // Valid by construction: a > 0 and a² + b² finite (checked by `init`).
        DampedSpring(validatedMass: 1, stiffness: decay * decay + frequency * frequency, damping: 2 * decay)
    }

    /// The initial velocity (per unit of travel) that goes with `spring`: `a`.
    public var initialVelocity: Double { decay }
}
