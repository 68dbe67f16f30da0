/// A system `x'' = a(x, v, t)`: what every Kinema scene is, and what every integrator steps.
@_spi(Engine) public protocol SecondOrderSystem: Sendable {
    associatedtype Vector: StateVector
    /// The acceleration at `position` and `velocity` at `time`.
    func acceleration(position: Vector, velocity: Vector, time: Double) -> Vector
}

@_spi(Engine) extension SecondOrderSystem {
    /// The first-order form `d/dt (x, v) = (v, a(x, v, t))`. Always inlined: with 8-lane and
    /// wider states the optimizer's size estimate otherwise leaves it a call in every stage.
    @inlinable @inline(__always)
    public func derivative(of state: PhaseState<Vector>, at time: Double) -> PhaseState<Vector> {
        PhaseState(
            position: state.velocity,
            velocity: acceleration(position: state.position, velocity: state.velocity, time: time))
    }
}
