/// How a fixed-step integrator holds its states between steps and runs a method's step on them:
/// as values of a fixed-width vector (`PackedStepStorage`), or in buffers allocated once for a
/// scene of any size (`FlatStepStorage`). `FixedStepIntegrator` takes it as a generic parameter.
@_spi(Engine) public protocol FixedStepStorage {
    associatedtype System: SecondOrderSystem
    typealias State = PhaseState<System.Vector>

    init(system: System, time: Double, state: State)
    /// The state at the integrator's time, and at the start of the last step.
    var state: State { get }
    var previousState: State { get }
    /// Acceleration evaluations made outside steps.
    var evaluations: Int { get }
    /// One step of `method` by `h` from `time`; the previous state becomes the current one.
    mutating func step<Method: FixedStepMethod>(_ method: Method.Type, _ system: System, time: Double, by h: Double)
    /// The accelerations at the start and the end of the last step.
    func accelerations(_ system: System, previousTime: Double, time: Double) -> (
        start: System.Vector, end: System.Vector
    )
    /// Restarts from `state` at `time`.
    mutating func restart(_ system: System, time: Double, state: State)
}

/// The states as values: a step's registers are values the optimizer keeps in CPU registers, and
/// the acceleration at a step's start is evaluated by the step (nothing is kept between steps).
@_spi(Engine) public struct PackedStepStorage<System: SecondOrderSystem>: FixedStepStorage {
    public typealias State = PhaseState<System.Vector>
    public var state: State
    public var previousState: State
    public var evaluations: Int { 0 }

    @inlinable
    public init(system: System, time: Double, state: State) {
        self.state = state
        previousState = state
    }

    @inlinable @inline(__always)
    public mutating func step<Method: FixedStepMethod>(
        _ method: Method.Type, _ system: System, time: Double, by h: Double
    ) {
        let a0 = system.acceleration(position: state.position, velocity: state.velocity, time: time)
        var registers = PackedStepRegisters<System>(x0: state.position, v0: state.velocity, a0: a0)
        Method.step(&registers, system, time: time, by: h)
        previousState = state
        state = PhaseState(position: registers[.x1, ()], velocity: registers[.v1, ()])
    }

    @inlinable
    public func accelerations(_ system: System, previousTime: Double, time: Double) -> (
        start: System.Vector, end: System.Vector
    ) {
        (
            system.acceleration(position: previousState.position, velocity: previousState.velocity, time: previousTime),
            system.acceleration(position: state.position, velocity: state.velocity, time: time)
        )
    }

    @inlinable
    public mutating func restart(_ system: System, time: Double, state: State) {
        self.state = state
        previousState = state
    }
}
