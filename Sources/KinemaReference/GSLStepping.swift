/// How GSL chooses the step: fixed, or by its standard error control.
public enum GSLStepping: Hashable, Sendable {
    /// Every step `timeStep` seconds, with no error control (`gsl_odeiv2_driver_apply_fixed_step`).
    case fixed(timeStep: Double)
    /// `eps_abs = eps_rel = tolerance`.
    case adaptive(tolerance: Double)
}
