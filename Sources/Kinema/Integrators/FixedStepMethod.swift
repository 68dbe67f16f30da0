/// A one-step method with a fixed step size, written once over `StepRegisters`. Each method is a
/// type, so a loop generic over it is specialized for the method, the system and the storage.
@_spi(Engine) public protocol FixedStepMethod {
    /// The global order of accuracy.
    static var order: Int { get }
    /// Acceleration evaluations per step (counting the one at the step's start).
    static var evaluationsPerStep: Int { get }
    /// Writes the state a step of `h` from `time` reaches into `x1` and `v1`, from `x0`, `v0` and
    /// `a0`, the acceleration there (evaluated by the storage).
    static func step<Registers: StepRegisters>(
        _ registers: inout Registers, _ system: Registers.System, time: Double, by h: Double)
    /// The largest stable step on a linear oscillator of angular frequency `omega` and damping
    /// ratio `dampingRatio` (0 when no step is stable).
    static func largestStableStep(omega: Double, dampingRatio: Double) -> Double
}
