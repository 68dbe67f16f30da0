/// Explicit (forward) Euler: `x += h·v`, `v += h·a(x, v)`. Order 1; gains energy on any undamped
/// oscillator, so it is stable only with damping, for `h < 2ζ/ω`.
@_spi(Engine) public enum ExplicitEuler: FixedStepMethod {
    public static let order = 1
    public static let evaluationsPerStep = 1

    @inlinable
    public static func step<S: SecondOrderSystem>(
        _ system: S, _ state: PhaseState<S.Vector>, time: Double, by h: Double
    ) -> PhaseState<S.Vector> {
        let a = system.acceleration(position: state.position, velocity: state.velocity, time: time)
        return PhaseState(position: state.position + h * state.velocity, velocity: state.velocity + h * a)
    }

    @inline(__always)
    public static func step(_ lanes: FlatStepLanes, by h: Double) {
        let (x0, v0, a0, x1, v1) = (lanes.x0, lanes.v0, lanes.a0, lanes.x1, lanes.v1)
        for i in 0..<lanes.count {
            x1[i] = x0[i] + h * v0[i]
            v1[i] = v0[i] + h * a0[i]
        }
        lanes.accelerate(x1, v1, into: lanes.aEnd)
    }

    public static func largestStableStep(omega: Double, dampingRatio zeta: Double) -> Double {
        if zeta >= 1 { return 2 / (omega * (zeta + (zeta * zeta - 1).squareRoot())) }
        return 2 * zeta / omega
    }
}
