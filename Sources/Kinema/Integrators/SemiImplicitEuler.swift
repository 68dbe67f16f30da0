/// Semi-implicit (symplectic) Euler: `v += h·a(x, v)`, then `x += h·v` with the new velocity.
/// Order 1, but symplectic: an undamped oscillator's energy stays bounded for `h < 2/ω`.
@_spi(Engine) public enum SemiImplicitEuler: FixedStepMethod {
    public static let order = 1
    public static let evaluationsPerStep = 1

    @inlinable
    public static func step<S: SecondOrderSystem>(
        _ system: S, _ state: PhaseState<S.Vector>, time: Double, by h: Double
    ) -> PhaseState<S.Vector> {
        let a = system.acceleration(position: state.position, velocity: state.velocity, time: time)
        let velocity = state.velocity + h * a
        return PhaseState(position: state.position + h * velocity, velocity: velocity)
    }

    public static func largestStableStep(omega: Double, dampingRatio: Double) -> Double { 2 / omega }
}
