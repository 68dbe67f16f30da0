import RealModule

/// A damped spring, `m·x'' = −k·(x − target) − c·x'`, in physical units (kg, N/m, N·s/m).
///
/// One value, constructible from and convertible to every parameter dialect in use (see the
/// `DampedSpring+Dialects.swift` initializers): Core Animation / framer-motion mass-stiffness-damping,
/// SwiftUI response-dampingRatio and duration-bounce, Rebound/react-spring tension-friction,
/// Origami and POP bounciness-speed, Android stiffness-dampingRatio, the jelly spring's damped cosine.
public struct DampedSpring: Hashable, Sendable, Codable {
    /// The moving mass `m` (> 0).
    public let mass: Double
    /// The stiffness `k` (> 0).
    public let stiffness: Double
    /// The damping coefficient `c` (≥ 0).
    public let damping: Double

    /// Creates a spring from mass, stiffness and damping (CASpringAnimation, framer-motion).
    /// - Throws: `KinemaError` unless mass and stiffness are finite and > 0, damping finite and ≥ 0,
    ///   and the motion representable (see `requireRepresentable`).
    public init(mass: Double = 1, stiffness: Double, damping: Double) throws {
        try Self.requireRepresentable(mass: mass, stiffness: stiffness, damping: damping)
        self.init(validatedMass: mass, stiffness: stiffness, damping: damping)
    }

    /// The largest decay rate `c/(2m)` (1/s) whose square is a finite number: the closed form
    /// needs `λ² − k/m`, and past this bound it overflows (a motion that slow settles after
    /// about 1e150 s anyway).
    public static var largestDecayRate: Double { 1e154 }

    /// Throws unless mass and stiffness are finite and > 0, damping finite and ≥ 0, `k/m` a
    /// finite number > 0 and `c/(2m)` at most `largestDecayRate`: the range where the closed
    /// form is exact.
    package static func requireRepresentable(mass: Double, stiffness: Double, damping: Double) throws {
        try KinemaError.requirePositive(mass, "mass")
        try KinemaError.requirePositive(stiffness, "stiffness")
        try KinemaError.requireNonNegative(damping, "damping")
        let omegaSquared = stiffness / mass
        guard omegaSquared.isFinite, omegaSquared > 0 else {
            throw KinemaError(
                parameter: "stiffness / mass", value: "\(stiffness) / \(mass)", rule: "a finite number > 0")
        }
        let decayRate = damping / (2 * mass)
        guard decayRate <= largestDecayRate else {
            throw KinemaError(
                parameter: "damping / (2·mass)", value: "\(decayRate)",
                rule: "at most \(largestDecayRate) per second, where the spring's closed form is exact")
        }
    }

    /// A spring of parameters known to be valid (constants, or values already checked).
    @usableFromInline
    init(validatedMass mass: Double, stiffness: Double, damping: Double) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
    }

    /// How the spring returns to its target.
    public enum Regime: String, Sendable, CaseIterable {
        /// ζ < 1: oscillates about the target.
        case underdamped
        /// ζ = 1 (within 1e-12): the fastest return without overshoot from rest.
        case critical
        /// ζ > 1: creeps back without oscillating.
        case overdamped

        /// Classifies `dampingRatio`, calling |ζ − 1| ≤ 1e-12 critical so that dialect round trips
        /// of a critical spring stay critical.
        public init(dampingRatio: Double) {
            if abs(dampingRatio - 1) <= 1e-12 {
                self = .critical
            } else {
                self = dampingRatio < 1 ? .underdamped : .overdamped
            }
        }
    }

    /// The undamped angular frequency `ω0 = √(k/m)` (rad/s).
    public var undampedFrequency: Double { (stiffness / mass).squareRoot() }

    /// The damping ratio `ζ = c / (2√(k·m))`.
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// The decay rate `λ = c / (2m)` (1/s): the envelope is `e^(−λt)` when underdamped.
    @inlinable public var decayRate: Double { damping / (2 * mass) }

    /// The damped angular frequency `ωd = ω0·√(1 − ζ²)` (rad/s); 0 unless underdamped.
    public var dampedFrequency: Double {
        let omegaSquared = stiffness / mass - decayRate * decayRate
        return regime == .underdamped && omegaSquared > 0 ? omegaSquared.squareRoot() : 0
    }

    /// The damping regime.
    public var regime: Regime { Regime(dampingRatio: dampingRatio) }

    /// The motion from `start` towards `target` with `initialVelocity` (units per second).
    public func motion(from start: Double = 0, to target: Double = 1, initialVelocity: Double = 0) throws
        -> DampedHarmonicOscillator
    {
        try DampedHarmonicOscillator(
            mass: mass, stiffness: stiffness, damping: damping,
            target: target, initialPosition: start, initialVelocity: initialVelocity)
    }

    /// The time after which the motion from `start` to `target` stays within `epsilon` × travel of
    /// the target, in every regime (see `DampedHarmonicOscillator.settlingDuration(tolerance:)`).
    ///
    /// With no travel (`start == target`), `epsilon` is taken as an absolute distance.
    /// - Throws: `KinemaError` for a non-finite or non-positive `epsilon` or non-finite inputs.
    public func settlingDuration(
        epsilon: Double = 0.001, from start: Double = 0, to target: Double = 1, initialVelocity: Double = 0
    ) throws -> Double {
        try KinemaError.requirePositive(epsilon, "epsilon")
        let travel = abs(target - start)
        let motion = try motion(from: start, to: target, initialVelocity: initialVelocity)
        let tolerance = epsilon * (travel > 0 ? travel : 1)
        guard tolerance > 0, tolerance.isFinite else {
            throw KinemaError(
                parameter: "epsilon × travel", value: "\(epsilon) × \(travel) = \(tolerance)",
                rule: "a finite number > 0 (choose a travel or epsilon whose product neither underflows nor overflows)")
        }
        return motion.settlingDuration(within: tolerance)
    }
}
