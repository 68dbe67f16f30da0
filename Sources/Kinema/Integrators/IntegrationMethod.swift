/// Which integrator a simulation uses, with its setting: a fixed step or a tolerance.
public enum IntegrationMethod: Hashable, Sendable {
    case euler(timeStep: Double)
    case semiImplicitEuler(timeStep: Double)
    case verlet(timeStep: Double)
    case rk4(timeStep: Double)
    /// Adams–Bashforth–Moulton PECE of the given order (1…12) at a fixed step: two evaluations per
    /// step. Samples between grid points come from its interpolant.
    case adams(timeStep: Double, order: Int)
    /// Dormand–Prince 5(4); the tolerance is used as both absolute and relative tolerance.
    case dopri5(tolerance: Double)
    /// DOP853; the tolerance is used as both absolute and relative tolerance.
    case dop853(tolerance: Double)
    /// The analytic solution, for one body under linear springs, gravity and drag.
    case exact

    /// The orders `adams` has.
    public static var adamsOrders: ClosedRange<Int> { 1...AdamsCoefficients.moulton.count }

    /// The name the CLI uses.
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
        }
    }

    /// What `adams`' order must be, in the words of an error message.
    public static var adamsOrderRule: String { "an integer from 1 to \(adamsOrders.upperBound)" }

    /// Whether every step ends on the next sample time. One-step fixed methods do (a sample is a
    /// step's end); Adams keeps its grid (a shorter step restarts its history) and interpolates;
    /// adaptive methods step freely and sample their dense output, except with colliders, where
    /// the samples bound the step so that a body cannot cross a plane and come back unseen.
    func endsStepsOnSamples(hasColliders: Bool) -> Bool {
        switch self {
        case .euler, .semiImplicitEuler, .verlet, .rk4: return true
        case .adams: return false
        case .dopri5, .dop853, .exact: return hasColliders
        }
    }

    /// The fixed step, for fixed-step methods.
    public var timeStep: Double? {
        switch self {
        case .euler(let h), .semiImplicitEuler(let h), .verlet(let h), .rk4(let h), .adams(let h, _): return h
        default: return nil
        }
    }

    /// Throws unless the step or tolerance is finite and > 0 and the order is one Kinema has.
    public func validate() throws {
        switch self {
        case .euler(let h), .semiImplicitEuler(let h), .verlet(let h), .rk4(let h):
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
}
