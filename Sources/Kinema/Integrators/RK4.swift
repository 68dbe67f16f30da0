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

    public static func largestStableStep(omega: Double, dampingRatio: Double) -> Double {
        2 * Double.sqrt(2) / omega
    }
}
