import RealModule

/// The exact motion of a damped spring, `m·x'' = −k·(x − target) − c·x'`, from any initial position
/// and velocity, in every damping regime. This is the reference every integrator is tested against.
///
/// With `λ = c/(2m)`, `κ = λ² − k/m`, `A = x0 − target` and `C = v0 + λ·A`:
/// ```
/// x(t) = target + e^(−λt)·(A·c(t) + C·s(t))
/// v(t) =          e^(−λt)·((C − λA)·c(t) + (A·κ − λC)·s(t))
/// ```
/// where `c' = κ·s`, `s' = c`, `c(0) = 1`, `s(0) = 0`: `c = cos(ωd·t)`, `s = sin(ωd·t)/ωd` when
/// underdamped (κ = −ωd²); `c = 1`, `s = t` when critical; `c = cosh(μt)`, `s = sinh(μt)/μ` when
/// overdamped (κ = μ²). The one formula is continuous across ζ = 1, with no division by a vanishing
/// frequency. Large `μt` switches to the two real exponentials so nothing overflows.
/// Accuracy: a few ulps of the result for moderate `λt`; the solution satisfies the ODE to rounding.
public struct DampedHarmonicOscillator: Hashable, Sendable {
    /// Mass m (> 0).
    public let mass: Double
    /// Stiffness k (≥ 0).
    public let stiffness: Double
    /// Damping coefficient c (≥ 0).
    public let damping: Double
    /// The rest position the spring pulls toward.
    public let target: Double
    /// The position x0 at t = 0.
    public let initialPosition: Double
    /// The velocity v0 at t = 0.
    public let initialVelocity: Double

    @usableFromInline let decayRate: Double
    @usableFromInline let kappa: Double
    @usableFromInline let rootAbsKappa: Double
    @usableFromInline let a: Double
    @usableFromInline let c: Double

    /// Creates the motion of `spring`-like parameters from `initialPosition` with `initialVelocity`
    /// towards `target`.
    /// - Throws: `KinemaError` unless mass and stiffness are finite and > 0, damping finite and ≥ 0,
    ///   the motion representable (`DampedSpring.requireRepresentable`), and the positions and
    ///   velocity finite.
    public init(
        mass: Double = 1, stiffness: Double, damping: Double,
        target: Double = 1, initialPosition: Double = 0, initialVelocity: Double = 0
    ) throws {
        try DampedSpring.requireRepresentable(mass: mass, stiffness: stiffness, damping: damping)
        try KinemaError.requireFinite(target, "target")
        try KinemaError.requireFinite(initialPosition, "initial position")
        try KinemaError.requireFinite(initialVelocity, "initial velocity")
        self.init(
            validatedMass: mass, stiffness: stiffness, damping: damping, target: target,
            initialPosition: initialPosition, initialVelocity: initialVelocity)
    }

    /// The motion of parameters already checked (a `DampedSpring`'s, finite initial conditions).
    @usableFromInline
    init(
        validatedMass mass: Double, stiffness: Double, damping: Double,
        target: Double, initialPosition: Double, initialVelocity: Double
    ) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.target = target
        self.initialPosition = initialPosition
        self.initialVelocity = initialVelocity
        decayRate = damping / (2 * mass)
        kappa = decayRate * decayRate - stiffness / mass
        rootAbsKappa = abs(kappa).squareRoot()
        a = initialPosition - target
        c = initialVelocity + decayRate * a
    }

    /// `e^(−λt)·c(t)` and `e^(−λt)·s(t)`.
    @inlinable
    func basis(at t: Double) -> (c: Double, s: Double) {
        Self.basis(
            decayRate: decayRate, kappa: kappa, rootAbsKappa: rootAbsKappa, omegaSquared: stiffness / mass, at: t)
    }

    /// `e^(−λt)·c(t)` and `e^(−λt)·s(t)` for `λ`, `κ = λ² − k/m`, `√|κ|` and `ω0² = k/m` (shared
    /// with `DampedSpring`'s generic motion, which needs the same two functions).
    @inlinable
    static func basis(
        decayRate: Double, kappa: Double, rootAbsKappa root: Double, omegaSquared: Double,
        at t: Double
    ) -> (c: Double, s: Double) {
        if kappa < 0 {
            let envelope = Double.exp(-decayRate * t)
            return (envelope * Double.cos(root * t), envelope * Double.sin(root * t) / root)
        }
        if kappa == 0 {
            let envelope = Double.exp(-decayRate * t)
            return (envelope, envelope * t)
        }
        if root * t < 1 {
            let envelope = Double.exp(-decayRate * t)
            return (envelope * Double.cosh(root * t), envelope * Double.sinh(root * t) / root)
        }
        // The slow rate μ − λ as −ω0²/(μ + λ): the difference cancels to 0 once ζ ≳ 1e8 (λ² − ω0²
        // rounds to λ²), and the motion would never settle.
        let slow = Double.exp(-omegaSquared / (root + decayRate) * t)
        let fast = Double.exp((-root - decayRate) * t)
        return ((slow + fast) / 2, (slow - fast) / (2 * root))
    }

    /// The position at time `t` (seconds from the start).
    @inlinable
    public func position(at t: Double) -> Double {
        let (bc, bs) = basis(at: t)
        return target + a * bc + c * bs
    }

    /// `position(at:)` at each of `times` with a few of its exponentials and sines: the times in
    /// blocks of about √n, the first of each block evaluated as `position(at:)` does; an
    /// underdamped motion's others rotate and scale it by the factors of their offset from it,
    /// computed once per offset when the times are evenly spaced (offsets within 2 ulp of the first
    /// block's). Each result is within about 1e-15·(1 + (ω + λ)·t) of the amplitude of
    /// `position(at:)`'s, whose own arguments ω·t and λ·t are rounded to 1.1e-16 relative.
    package func positions(at times: [Double]) -> [Double] {
        let block = max(1, Int(Double(times.count).squareRoot().rounded()))
        guard kappa < 0, times.count > 2 * block else { return times.map(position(at:)) }
        let omega = rootAbsKappa
        func factors(_ t: Double) -> (c: Double, s: Double) {
            let envelope = Double.exp(-decayRate * t)
            return (envelope * Double.cos(omega * t), envelope * Double.sin(omega * t))
        }
        // The first block's offsets from its first time, and their factors.
        let offsets = (0..<block).map { times[$0] - times[0] }, rotations = offsets.map(factors)
        var positions = [Double](repeating: 0, count: times.count)
        for first in stride(from: 0, to: times.count, by: block) {
            let start = factors(times[first])
            positions[first] = target + a * start.c + c * start.s / omega
            for j in 1..<min(block, times.count - first) {
                let i = first + j
                guard abs(times[i] - times[first] - offsets[j]) <= 2 * times[i].ulp else {
                    positions[i] = position(at: times[i])
                    continue
                }
                let r = rotations[j]
                let (bc, bs) = (start.c * r.c - start.s * r.s, start.s * r.c + start.c * r.s)
                positions[i] = target + a * bc + c * bs / omega
            }
        }
        return positions
    }

    /// The displacement from the target, `x(t) − target`, without the rounding of adding `target`.
    @inlinable
    public func displacement(at t: Double) -> Double {
        let (bc, bs) = basis(at: t)
        return a * bc + c * bs
    }

    /// The velocity at time `t`.
    @inlinable
    public func velocity(at t: Double) -> Double {
        let (bc, bs) = basis(at: t)
        return (c - decayRate * a) * bc + (a * kappa - decayRate * c) * bs
    }

    /// The damping ratio `ζ = c / (2·√(k·m))`.
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// The damping regime.
    public var regime: DampedSpring.Regime { DampedSpring.Regime(dampingRatio: dampingRatio) }
}

extension DampedHarmonicOscillator: CustomStringConvertible {
    /// The parameters and initial conditions as a user gave them (not the derived coefficients).
    public var description: String {
        "DampedHarmonicOscillator(mass: \(mass), stiffness: \(stiffness), damping: \(damping), target: \(target), "
            + "initialPosition: \(initialPosition), initialVelocity: \(initialVelocity); \(regime), ζ = \(dampingRatio))"
    }
}
