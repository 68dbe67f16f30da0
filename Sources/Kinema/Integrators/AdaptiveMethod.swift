/// An embedded Runge–Kutta pair with dense output, written once over `StageRegisters`: each method
/// is a type, so `AdaptiveIntegrator`'s loop is specialized for the method, the system and the storage.
@_spi(Engine) public protocol AdaptiveMethod {
    /// The order the initial step size is chosen for.
    static var order: Int { get }
    /// The step-size control law.
    static var law: StepSizeController.Law { get }
    /// Derivative evaluations per trial step, and to build the dense output of an accepted one.
    static var evaluationsPerStep: Int { get }
    static var denseEvaluations: Int { get }
    /// The last register an accepted step keeps for its dense output (from `y` on, with `y1`
    /// and `end`).
    static var lastKept: StageSlot { get }
    /// The last register the method uses.
    static var lastRegister: StageSlot { get }
    /// One trial step of size h from `y` at `t` (its derivative in `k1`), the state reached (at
    /// `tNew`) in `y1` and its derivative in `end`. Returns the scaled error (≤ 1 accepts).
    static func trial<R: StageRegisters>(
        _ r: inout R, _ system: R.System, time t: Double, step h: Double, end tNew: Double,
        absolute: Double, relative: Double, lanes: Double
    ) -> Double
    /// The dense output's coefficients of the accepted step of size h from (t, `y`) to `y1`.
    static func denseOutput<R: StageRegisters>(_ r: inout R, _ system: R.System, time t: Double, step h: Double)
    /// The dense output at θ, on whole states or on one lane; at θ = 0 the start itself.
    static func dense<R: StageRegisters>(_ r: borrowing R, _ lane: R.Lane, _ theta: Double) -> R.Element
}
