import CGSL
import Kinema

/// A `gsl_odeiv2` step type.
public enum GSLMethod: String, CaseIterable, Sendable {
    /// Explicit embedded Runge–Kutta (2, 3).
    case rk2
    /// Explicit fourth-order Runge–Kutta (classical).
    case rk4
    /// Explicit embedded Runge–Kutta–Fehlberg (4, 5).
    case rkf45
    /// Explicit embedded Runge–Kutta Cash–Karp (4, 5).
    case rkck
    /// Explicit embedded Runge–Kutta Prince–Dormand (8, 9).
    case rk8pd
    /// Implicit Gaussian fourth-order Runge–Kutta (needs a Jacobian).
    case rk4imp
    /// Implicit Bulirsch–Stoer of Bader and Deuflhard (needs a Jacobian).
    case bsimp
    /// Variable-coefficient linear multistep Adams, orders 1 to 12.
    case msadams
    /// Variable-coefficient linear multistep backward differentiation (BDF), orders 1 to 5.
    case msbdf

    /// The implicit methods, which GSL 2.7 dereferences a Jacobian for (they crash without one).
    public var needsJacobian: Bool { self == .rk4imp || self == .bsimp || self == .msbdf }

    /// msadams and msbdf: variable-order multistep methods, adaptive only.
    public var isMultistep: Bool { self == .msadams || self == .msbdf }

    /// The method's order of accuracy.
    public var order: Int {
        switch self {
        case .rk2: return 2
        case .rk4, .rk4imp: return 4
        case .rkf45, .rkck: return 5
        case .rk8pd: return 8
        case .bsimp: return 6
        case .msadams: return 12
        case .msbdf: return 5
        }
    }

    var stepType: UnsafePointer<gsl_odeiv2_step_type> {
        switch self {
        case .rk2: return kinema_gsl_step_rk2()
        case .rk4: return kinema_gsl_step_rk4()
        case .rkf45: return kinema_gsl_step_rkf45()
        case .rkck: return kinema_gsl_step_rkck()
        case .rk8pd: return kinema_gsl_step_rk8pd()
        case .rk4imp: return kinema_gsl_step_rk4imp()
        case .bsimp: return kinema_gsl_step_bsimp()
        case .msadams: return kinema_gsl_step_msadams()
        case .msbdf: return kinema_gsl_step_msbdf()
        }
    }

    /// The Kinema method whose step estimate (`IntegrationMethod.estimatedSteps`) stands for this
    /// one's: a fixed step counts the same; the adaptive steppers like DP5(4), or DOP853 for the
    /// high orders (rk8pd, bsimp). The implicit ones have no stability bound, so their estimate
    /// only counts while a mode oscillates (`GSLReference` skips it for overdamped scenes).
    func estimateProxy(_ stepping: GSLStepping) -> IntegrationMethod {
        switch stepping {
        case .fixed(let h): return .rk4(timeStep: h)
        case .adaptive(let tolerance):
            return self == .rk8pd || self == .bsimp ? .dop853(tolerance: tolerance) : .dopri5(tolerance: tolerance)
        }
    }
}
