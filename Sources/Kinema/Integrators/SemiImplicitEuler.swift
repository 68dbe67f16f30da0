/// Semi-implicit (symplectic) Euler: `v += h·a(x, v)`, then `x += h·v` with the new velocity.
/// Order 1, but symplectic: an undamped oscillator's energy stays bounded for `h < 2/ω`.
@_spi(Engine) public enum SemiImplicitEuler: FixedStepMethod {
    public static let order = 1
    public static let evaluationsPerStep = 1

    @inlinable @inline(__always)
    public static func step<R: StepRegisters>(_ r: inout R, _ system: R.System, time: Double, by h: Double) {
        r.forEachLane { r, i in
            r[.v1, i] = r[.v0, i] + h * r[.a0, i]
            r[.x1, i] = r[.x0, i] + h * r[.v1, i]
        }
    }

    public static func largestStableStep(omega: Double, dampingRatio: Double) -> Double { 2 / omega }
}
