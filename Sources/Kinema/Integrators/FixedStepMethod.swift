/// A one-step method with a fixed step size. Each method is a type, so a loop generic over it is
/// specialized for the method and the system together.
@_spi(Engine) public protocol FixedStepMethod {
    /// The global order of accuracy.
    static var order: Int { get }
    /// Acceleration evaluations per step.
    static var evaluationsPerStep: Int { get }
    /// Advances `state` from `time` by `h`.
    static func step<S: SecondOrderSystem>(
        _ system: S, _ state: PhaseState<S.Vector>, time: Double, by h: Double
    ) -> PhaseState<S.Vector>
    /// The largest stable step on a linear oscillator of angular frequency `omega` and damping
    /// ratio `dampingRatio` (0 when no step is stable).
    static func largestStableStep(omega: Double, dampingRatio: Double) -> Double
}
