/// How GSL chooses the step: fixed, or by its standard error control.
public enum GSLStepping: Hashable, Sendable {
    case fixed(timeStep: Double)
    /// `eps_abs = eps_rel = tolerance`.
    case adaptive(tolerance: Double)
}
