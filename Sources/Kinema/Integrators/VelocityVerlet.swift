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

    @inline(__always)
    public static func step(_ lanes: FlatStepLanes, by h: Double) {
        let (x0, v0, a0, x1, v1) = (lanes.x0, lanes.v0, lanes.a0, lanes.x1, lanes.v1)
        let predicted = lanes.slot(0), a1 = lanes.slot(1), halfSquare = 0.5 * h * h, half = 0.5 * h
        for i in 0..<lanes.count {
            x1[i] = (x0[i] + h * v0[i]) + halfSquare * a0[i]
            predicted[i] = v0[i] + h * a0[i]
        }
        lanes.accelerate(x1, predicted, into: a1)
        for i in 0..<lanes.count { v1[i] = v0[i] + half * (a0[i] + a1[i]) }
        lanes.accelerate(x1, v1, into: lanes.aEnd)
    }

    public static func largestStableStep(omega: Double, dampingRatio: Double) -> Double { 2 / omega }
}
