/// Steps a system with a fixed-step method at `timeStep`, shortening only the step that would pass
/// a requested limit (a sample time or the end), so samples land on exact times.
///
/// Inside a step it interpolates with cubic Hermite polynomials from the end points' positions,
/// velocities and accelerations (error O(h⁴)), used to locate collisions.
@_spi(Engine) public struct FixedStepIntegrator<System: SecondOrderSystem, Method: FixedStepMethod>: Integrator {
    public typealias State = PhaseState<System.Vector>

    public var system: System
    public let timeStep: Double
    public var time: Double { _time }
    @usableFromInline var _time: Double
    public var state: State { _state }
    @usableFromInline var _state: State
    public var previousTime: Double { _previousTime }
    @usableFromInline var _previousTime: Double
    public var previousState: State { _previousState }
    @usableFromInline var _previousState: State
    public var steps: Int { _steps }
    @usableFromInline var _steps: Int = 0
    public var evaluations: Int { _evaluations }
    @usableFromInline var _evaluations: Int = 0

    /// - Precondition: `timeStep` is finite and > 0 (validated by the callers that take user input).
    @inlinable
    public init(system: System, method: Method.Type = Method.self, time: Double = 0, state: State, timeStep: Double) {
        precondition(timeStep > 0 && timeStep.isFinite, "timeStep must be finite and > 0")
        self.system = system
        self.timeStep = timeStep
        _time = time
        _state = state
        _previousTime = time
        _previousState = state
    }

    /// One step: the loop below, which stops after one when the target is behind it.
    @inlinable
    public mutating func advance(toward limit: Double) throws {
        try advance(toward: limit, reaching: -.infinity)
    }

    /// Steps toward `limit` (the last one shortened to end on it) until `time ≥ target`, at most 64
    /// in one call: the simulator's checks after a call (finite state, energy) cost more than a
    /// small scene's step, and a run of steps keeps the state in registers.
    @inlinable
    public mutating func advance(toward limit: Double, reaching target: Double) throws {
        let system = self.system, timeStep = self.timeStep
        var time = _time, state = _state, previousTime = _previousTime, previousState = _previousState
        var taken = 0
        repeat {
            let remaining = limit - time
            let h = remaining <= timeStep * (1 + 1e-9) ? remaining : timeStep
            previousTime = time
            previousState = state
            state = Method.step(system, state, time: time, by: h)
            time = h == remaining ? limit : time + h
            taken &+= 1
        } while taken < 64 && time < target
        _time = time
        _state = state
        _previousTime = previousTime
        _previousState = previousState
        _steps += taken
        _evaluations += taken * Method.evaluationsPerStep
    }

    @inlinable
    public func interpolate(at t: Double) -> State {
        let h = time - previousTime
        if h <= 0 || t >= time { return state }
        if t <= previousTime { return previousState }
        let s = (t - previousTime) / h
        let a0 = system.acceleration(
            position: previousState.position, velocity: previousState.velocity, time: previousTime)
        let a1 = system.acceleration(position: state.position, velocity: state.velocity, time: time)
        return PhaseState(
            position: Hermite.value(
                previousState.position, previousState.velocity, state.position, state.velocity, s, h),
            velocity: Hermite.value(previousState.velocity, a0, state.velocity, a1, s, h))
    }

    @inlinable
    public func interpolatePosition(at t: Double) -> System.Vector {
        let h = time - previousTime
        if h <= 0 || t >= time { return state.position }
        if t <= previousTime { return previousState.position }
        return Hermite.value(
            previousState.position, previousState.velocity, state.position, state.velocity,
            (t - previousTime) / h, h)
    }

    @inlinable
    public mutating func restart(at time: Double, state: State) {
        _time = time
        _state = state
        _previousTime = time
        _previousState = state
    }
}
