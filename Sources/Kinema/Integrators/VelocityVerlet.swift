/// Velocity Verlet: `x += h·v + h²/2·a0`, `v += h/2·(a0 + a1)`, where `a1` is evaluated at the
/// new position with the predicted velocity `v + h·a0` (needed when forces depend on velocity).
/// Order 2; symplectic for position-only forces; stable for `h < 2/ω`.
@_spi(Engine) public enum VelocityVerlet: FixedStepMethod {
    public static let order = 2
    public static let evaluationsPerStep = 2

    @inlinable
    public static func step<S: SecondOrderSystem>(
        _ system: S, _ state: PhaseState<S.Vector>, time: Double, by h: Double
    ) -> PhaseState<S.Vector> {
        let a0 = system.acceleration(position: state.position, velocity: state.velocity, time: time)
        let position = state.position + h * state.velocity + (0.5 * h * h) * a0
        let predicted = state.velocity + h * a0
        let a1 = system.acceleration(position: position, velocity: predicted, time: time + h)
        return PhaseState(position: position, velocity: state.velocity + (0.5 * h) * (a0 + a1))
    }

    public static func largestStableStep(omega: Double, dampingRatio: Double) -> Double { 2 / omega }
}
