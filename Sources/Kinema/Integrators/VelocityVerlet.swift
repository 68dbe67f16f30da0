/// Velocity Verlet: `x += h·v + h²/2·a0`, `v += h/2·(a0 + a1)`, where `a1` is evaluated at the
/// new position with the predicted velocity `v + h·a0` (needed when forces depend on velocity).
/// Order 2; symplectic for position-only forces; stable for `h < 2/ω`.
@_spi(Engine) public enum VelocityVerlet: FixedStepMethod {
    public static let order = 2
    public static let evaluationsPerStep = 2

    @inlinable @inline(__always)
    public static func step<R: StepRegisters>(_ r: inout R, _ system: R.System, time: Double, by h: Double) {
        let halfSquare = 0.5 * h * h, half = 0.5 * h
        // s0: the predicted velocity; s1: the acceleration there.
        r.forEachLane { r, i in
            r[.x1, i] = r[.x0, i] + h * r[.v0, i] + halfSquare * r[.a0, i]
            r[.s0, i] = r[.v0, i] + h * r[.a0, i]
        }
        r.accelerate(.x1, .s0, into: .s1, time: time + h, system)
        r.forEachLane { r, i in r[.v1, i] = r[.v0, i] + half * (r[.a0, i] + r[.s1, i]) }
    }

    public static func largestStableStep(omega: Double, dampingRatio: Double) -> Double { 2 / omega }
}
