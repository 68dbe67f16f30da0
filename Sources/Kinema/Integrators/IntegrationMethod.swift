import RealModule

/// Which integrator a simulation uses, with its setting: a fixed step or a tolerance.
public enum IntegrationMethod: Hashable, Sendable {
    /// Explicit (forward) Euler at a fixed step: first order, for comparison; it gains energy on
    /// every oscillator.
    case euler(timeStep: Double)
    /// Semi-implicit (symplectic) Euler at a fixed step: velocity first, then position with it.
    /// First order, energy bounded: what most game engines step.
    case semiImplicitEuler(timeStep: Double)
    /// Velocity Verlet at a fixed step: second order and symplectic.
    case verlet(timeStep: Double)
    /// The classic fourth-order Runge–Kutta at a fixed step: four evaluations per step.
    case rk4(timeStep: Double)
    /// Adams–Bashforth–Moulton PECE of the given order (1…12) at a fixed step: two evaluations per
    /// step. Samples between grid points come from its interpolant.
    case adams(timeStep: Double, order: Int)
    /// Dormand–Prince 5(4); the tolerance is used as both absolute and relative tolerance.
    case dopri5(tolerance: Double)
    /// DOP853; the tolerance is used as both absolute and relative tolerance.
    case dop853(tolerance: Double)
    /// The analytic solution, for bodies under gravity, drag and springs whose forces are linear
    /// (rest length 0, or any rest length in 1-D while each spring keeps its ends in order; bodies
    /// joined by springs up to 48 coordinates).
    case exact
    /// Moreau–Jean time stepping for piles and rains, at a fixed step: semi-implicit Euler whose
    /// every step solves all contacts' impulses at once (restitution, Coulomb friction between
    /// spheres and on planes), projects overlaps out, and puts islands at rest to sleep. Impacts
    /// take effect at a step's end instead of being located to rounding.
    case moreauJean(timeStep: Double)

    /// The orders `adams` has.
    @usableFromInline package static var adamsOrders: ClosedRange<Int> { 1...AdamsCoefficients.highestOrder }

    /// The method's name, as `kinema --integrator` takes it and errors name it.
    public var name: String {
        switch self {
        case .euler: return "euler"
        case .semiImplicitEuler: return "semi-implicit-euler"
        case .verlet: return "verlet"
        case .rk4: return "rk4"
        case .adams: return "adams"
        case .dopri5: return "dopri5"
        case .dop853: return "dop853"
        case .exact: return "exact"
        case .moreauJean: return "moreau-jean"
        }
    }

    /// What `adams`' order must be, in the words of an error message.
    @_spi(Engine) public static var adamsOrderRule: String { "an integer from 1 to \(adamsOrders.upperBound)" }

    /// Whether every step ends on the next sample time. One-step fixed methods do (a sample is a
    /// step's end); Adams keeps its grid (a shorter step restarts its history) and interpolates;
    /// adaptive methods step freely and sample their dense output, except with colliders, where
    /// the samples bound the step so that a body cannot cross a plane and come back unseen.
    func endsStepsOnSamples(hasColliders: Bool) -> Bool {
        switch self {
        case .euler, .semiImplicitEuler, .verlet, .rk4, .moreauJean: return true
        case .adams: return false
        case .dopri5, .dop853, .exact: return hasColliders
        }
    }

    /// The fixed step, for fixed-step methods.
    public var timeStep: Double? {
        switch self {
        case .euler(let h), .semiImplicitEuler(let h), .verlet(let h), .rk4(let h), .adams(let h, _),
            .moreauJean(let h):
            return h
        default: return nil
        }
    }

    /// Throws unless the step or tolerance is finite and > 0 and the order is one Kinema has.
    package func validate() throws {
        switch self {
        case .euler(let h), .semiImplicitEuler(let h), .verlet(let h), .rk4(let h), .moreauJean(let h):
            try KinemaError.requirePositive(h, "timeStep")
        case .adams(let h, let order):
            try KinemaError.requirePositive(h, "timeStep")
            guard Self.adamsOrders.contains(order) else {
                throw KinemaError(parameter: "order", value: "\(order)", rule: Self.adamsOrderRule)
            }
        case .dopri5(let tolerance), .dop853(let tolerance):
            try KinemaError.requirePositive(tolerance, "tolerance")
        case .exact:
            break
        }
    }

    /// The largest stable fixed step on a mode of angular frequency `omega` and damping ratio
    /// `dampingRatio` (for a spring: √(k/m) and its damping ratio); 0 when no step is stable, nil
    /// for the adaptive and exact methods.
    public func largestStableStep(omega: Double, dampingRatio zeta: Double) -> Double? {
        switch self {
        case .euler: return ExplicitEuler.largestStableStep(omega: omega, dampingRatio: zeta)
        case .semiImplicitEuler, .moreauJean:
            return SemiImplicitEuler.largestStableStep(omega: omega, dampingRatio: zeta)
        case .verlet: return VelocityVerlet.largestStableStep(omega: omega, dampingRatio: zeta)
        case .rk4: return RK4.largestStableStep(omega: omega, dampingRatio: zeta)
        case .adams(_, let order):
            return AdamsLimits.largestStableStep(
                order: order, omega: omega, dampingRatio: zeta)
        case .dopri5, .dop853, .exact: return nil
        }
    }

    /// Whether the fixed step `h` is within Adams's stability limit on the mode, by the limit's
    /// scan only as far as `h` (the limit itself is a longer scan); nil for the other methods,
    /// whose limits are closed forms, cheaper to compute than to bound.
    func isWithinStabilityLimit(step h: Double, omega: Double, dampingRatio zeta: Double) -> Bool? {
        guard case .adams(_, let order) = self else { return nil }
        return AdamsLimits.isWithinLimit(
            order: order, step: h, omega: omega, dampingRatio: zeta)
    }

    /// |λ| of a mode's fastest eigenvalue: ω·(ζ + √(ζ² − 1)) when overdamped, ω otherwise.
    static func fastestRate(omega: Double, dampingRatio zeta: Double) -> Double {
        omega * (zeta <= 1 ? 1 : zeta + (zeta * zeta - 1).squareRoot())
    }

    /// h·|λ| below which a run does not look for its fixed step's stability limit on a mode of
    /// damping ratio `dampingRatio` (it cannot be 4× past it): Adams's bound on the limits of every
    /// spring of about that damping; 0.05 for the others (their limits are closed forms; explicit
    /// Euler's drifts from any step and is left to the driver).
    func stabilityCheckThreshold(dampingRatio zeta: Double) -> Double {
        switch self {
        case .adams(_, let order):
            return AdamsLimits.stepStableOnEverySpring(
                order: order, dampingRatio: zeta)
        default: return 0.05
        }
    }

    /// A lower bound on the steps a run of `duration` seconds takes when the stiffest mode has
    /// angular frequency `omega` and damping ratio `dampingRatio`: the fixed step's count, or, for
    /// the explicit adaptive pairs, the larger of what stability and accuracy force.
    /// - Stability: the step times the fastest rate |λ| = ω·(ζ + √(ζ² − 1)), or ω when
    ///   underdamped, stays within the stability region (about 3.3 for DP5(4), 6 for DOP853).
    /// - Accuracy, while an underdamped mode still oscillates above the tolerance (for
    ///   ln(1/tol)/(ζω) seconds): steps per radian ≈ A·tol^(−1/p), half of what was measured on a
    ///   spring with ζ = 0.1 from tol 1e-4 to 1e-11 (DP5(4): A = 0.2, p = 5; DOP853: A = 0.15, p = 8).
    package func estimatedSteps(duration: Double, omega: Double, dampingRatio zeta: Double) -> Double {
        let fastest = Self.fastestRate(omega: omega, dampingRatio: zeta)
        func adaptive(_ tolerance: Double, region: Double, perRadian: Double, order: Double) -> Double {
            let stability = duration * fastest / region
            guard zeta < 1, omega > 0 else { return stability }
            let oscillating = zeta > 0 ? min(duration, Double.log(1 / tolerance) / (zeta * omega)) : duration
            let accuracy = 0.5 * perRadian * Double.pow(tolerance, -1 / order) * omega * max(oscillating, 0)
            return max(stability, accuracy)
        }
        switch self {
        case .euler(let h), .semiImplicitEuler(let h), .verlet(let h), .rk4(let h), .adams(let h, _),
            .moreauJean(let h):
            return (duration / h).rounded(.up)
        case .dopri5(let tolerance): return adaptive(tolerance, region: 3.3, perRadian: 0.2, order: 5)
        case .dop853(let tolerance): return adaptive(tolerance, region: 6, perRadian: 0.15, order: 8)
        case .exact: return 0
        }
    }
}

/// Adams's stability limits depend on the order and the mode alone; this system only names the
/// generic they are declared on.
private struct FreeMotion: SecondOrderSystem {
    func acceleration(position: Double, velocity: Double, time: Double) -> Double { 0 }
}

private typealias AdamsLimits = AdamsBashforthMoulton<PackedAdamsStorage<FreeMotion>>
