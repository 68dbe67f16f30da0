import RealModule

/// The classic fourth-order Runge–Kutta method on `(x, v)`. Order 4; stable on an undamped
/// oscillator for `h < 2√2/ω`.
@_spi(Engine) public enum RK4: FixedStepMethod {
    public static let order = 4
    public static let evaluationsPerStep = 4

    @inlinable @inline(__always)
    public static func step<R: StepRegisters>(_ r: inout R, _ system: R.System, time: Double, by h: Double) {
        let half = 0.5 * h, sixth = h / 6
        r.forEachLane { r, i in
            r[.s0, i] = r[.x0, i] + half * r[.v0, i]
            r[.s2, i] = r[.v0, i] + half * r[.a0, i]
        }
        r.accelerate(.s0, .s2, into: .s4, time: time + half, system)
        r.forEachLane { r, i in
            r[.s0, i] = r[.x0, i] + half * r[.s2, i]
            r[.s3, i] = r[.v0, i] + half * r[.s4, i]
        }
        r.accelerate(.s0, .s3, into: .s5, time: time + half, system)
        r.forEachLane { r, i in
            r[.s0, i] = r[.x0, i] + h * r[.s3, i]
            r[.s1, i] = r[.v0, i] + h * r[.s5, i]
        }
        r.accelerate(.s0, .s1, into: .s6, time: time + h, system)
        r.forEachLane { r, i in
            r[.x1, i] = r[.x0, i] + sixth * (r[.v0, i] + 2 * (r[.s2, i] + r[.s3, i]) + r[.s1, i])
            r[.v1, i] = r[.v0, i] + sixth * (r[.a0, i] + 2 * (r[.s4, i] + r[.s5, i]) + r[.s6, i])
        }
    }

    public static func largestStableStep(omega: Double, dampingRatio: Double) -> Double {
        2 * Double.sqrt(2) / omega
    }
}
