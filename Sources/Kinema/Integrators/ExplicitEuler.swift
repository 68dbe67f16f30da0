/// Explicit (forward) Euler: `x += h·v`, `v += h·a(x, v)`. Order 1; gains energy on any undamped
/// oscillator, so it is stable only with damping, for `h < 2ζ/ω`.
@_spi(Engine) public enum ExplicitEuler: FixedStepMethod {
    public static let order = 1
    public static let evaluationsPerStep = 1

    @inlinable @inline(__always)
    public static func step<R: StepRegisters>(_ r: inout R, _ system: R.System, time: Double, by h: Double) {
        r.forEachLane { r, i in
            r[.x1, i] = r[.x0, i] + h * r[.v0, i]
            r[.v1, i] = r[.v0, i] + h * r[.a0, i]
        }
    }

    public static func largestStableStep(omega: Double, dampingRatio zeta: Double) -> Double {
        if zeta >= 1 { return 2 / (omega * (zeta + (zeta * zeta - 1).squareRoot())) }
        return 2 * zeta / omega
    }
}
