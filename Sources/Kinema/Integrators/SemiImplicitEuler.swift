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

    @inline(__always)
    public static func step(_ lanes: FlatStepLanes, by h: Double) {
        let (x0, v0, a0, x1, v1) = (lanes.x0, lanes.v0, lanes.a0, lanes.x1, lanes.v1)
        for i in 0..<lanes.count {
            v1[i] = v0[i] + h * a0[i]
            x1[i] = x0[i] + h * v1[i]
        }
        lanes.accelerate(x1, v1, into: lanes.aEnd)
    }

    public static func largestStableStep(omega: Double, dampingRatio: Double) -> Double { 2 / omega }
}
