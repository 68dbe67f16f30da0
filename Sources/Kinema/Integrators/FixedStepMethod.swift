import RealModule

/// A one-step method with a fixed step size. Each method is a type, so a loop generic over it is
/// specialized for the method and the system together.
public protocol FixedStepMethod {
    /// The global order of accuracy.
    static var order: Int { get }
    /// Acceleration evaluations per step.
    static var evaluationsPerStep: Int { get }
    /// Advances `state` from `time` by `h`.
    static func step<S: SecondOrderSystem>(
        _ system: S, _ state: PhaseState<S.Vector>, time: Double, by h: Double
    ) -> PhaseState<S.Vector>
    /// The largest stable step on a linear oscillator of angular frequency `omega` and damping
    /// ratio `dampingRatio` (0 when no step is stable).
    static func largestStableStep(omega: Double, dampingRatio: Double) -> Double
}

/// Explicit (forward) Euler: `x += h·v`, `v += h·a(x, v)`. Order 1; gains energy on any undamped
/// oscillator, so it is stable only with damping, for `h < 2ζ/ω`.
public enum ExplicitEuler: FixedStepMethod {
    public static let order = 1
    public static let evaluationsPerStep = 1

    @inlinable
    public static func step<S: SecondOrderSystem>(
        _ system: S, _ state: PhaseState<S.Vector>, time: Double, by h: Double
    ) -> PhaseState<S.Vector> {
        let a = system.acceleration(position: state.position, velocity: state.velocity, time: time)
        return PhaseState(position: state.position + h * state.velocity, velocity: state.velocity + h * a)
    }

    public static func largestStableStep(omega: Double, dampingRatio zeta: Double) -> Double {
        if zeta >= 1 { return 2 / (omega * (zeta + (zeta * zeta - 1).squareRoot())) }
        return 2 * zeta / omega
    }
}

/// Semi-implicit (symplectic) Euler: `v += h·a(x, v)`, then `x += h·v` with the new velocity.
/// Order 1, but symplectic: an undamped oscillator's energy stays bounded for `h < 2/ω`.
public enum SemiImplicitEuler: FixedStepMethod {
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

/// Velocity Verlet: `x += h·v + h²/2·a0`, `v += h/2·(a0 + a1)`, where `a1` is evaluated at the
/// new position with the predicted velocity `v + h·a0` (needed when forces depend on velocity).
/// Order 2; symplectic for position-only forces; stable for `h < 2/ω`.
public enum VelocityVerlet: FixedStepMethod {
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

    public static func largestStableStep(omega: Double, dampingRatio: Double) -> Double { 2 / omega }
}

/// The classic fourth-order Runge–Kutta method on `(x, v)`. Order 4; stable on an undamped
/// oscillator for `h < 2√2/ω`.
public enum RK4: FixedStepMethod {
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
