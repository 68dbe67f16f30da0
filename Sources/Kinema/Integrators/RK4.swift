import RealModule

/// The classic fourth-order Runge–Kutta method on `(x, v)`. Order 4; stable on an undamped
/// oscillator for `h < 2√2/ω`.
@_spi(Engine) public enum RK4: FixedStepMethod {
    public static let order = 4
    public static let evaluationsPerStep = 4

    @inlinable
    public static func step<S: SecondOrderSystem>(
        _ system: S, _ state: PhaseState<S.Vector>, time: Double, by h: Double
    ) -> PhaseState<S.Vector> {
        let half = 0.5 * h
        let k1 = system.derivative(of: state, at: time)
        let k2 = system.derivative(of: state + half * k1, at: time + half)
        let k3 = system.derivative(of: state + half * k2, at: time + half)
        let k4 = system.derivative(of: state + h * k3, at: time + h)
        return state + (h / 6) * (k1 + 2 * (k2 + k3) + k4)
    }

    @inline(__always)
    public static func step(_ lanes: FlatStepLanes, by h: Double) {
        let (n, x0, v0, a1, x1, v1) = (lanes.count, lanes.x0, lanes.v0, lanes.a0, lanes.x1, lanes.v1)
        let half = 0.5 * h, sixth = h / 6
        let xs = lanes.slot(0), vs = lanes.slot(1), v2 = lanes.slot(2), v3 = lanes.slot(3)
        let a2 = lanes.slot(4), a3 = lanes.slot(5), a4 = lanes.slot(6)
        for i in 0..<n {
            xs[i] = x0[i] + half * v0[i]
            v2[i] = v0[i] + half * a1[i]
        }
        lanes.accelerate(xs, v2, into: a2)
        for i in 0..<n {
            xs[i] = x0[i] + half * v2[i]
            v3[i] = v0[i] + half * a2[i]
        }
        lanes.accelerate(xs, v3, into: a3)
        for i in 0..<n {
            xs[i] = x0[i] + h * v3[i]
            vs[i] = v0[i] + h * a3[i]
        }
        lanes.accelerate(xs, vs, into: a4)
        for i in 0..<n {
            x1[i] = x0[i] + sixth * (v0[i] + 2 * (v2[i] + v3[i]) + vs[i])
            v1[i] = v0[i] + sixth * (a1[i] + 2 * (a2[i] + a3[i]) + a4[i])
        }
        lanes.accelerate(x1, v1, into: lanes.aEnd)
    }

    public static func largestStableStep(omega: Double, dampingRatio: Double) -> Double {
        2 * Double.sqrt(2) / omega
    }
}
