/// Steps a system with a fixed-step method at `timeStep`, shortening only the step that would pass
/// a requested limit (a sample time or the end), so samples land on exact times. `Storage` holds
/// the states: values of a fixed-width vector (`PackedStepStorage`, the default) or buffers for a
/// scene of any size (`FlatStepStorage`).
///
/// Inside a step it interpolates with cubic Hermite polynomials from the end points' positions,
/// velocities and accelerations (error O(h⁴)), used to locate collisions.
@_spi(Engine) public struct FixedStepIntegrator<Storage: FixedStepStorage, Method: FixedStepMethod>: Integrator {
    public typealias System = Storage.System
    public typealias State = PhaseState<System.Vector>

    public var system: System
    public let timeStep: Double
    public var time: Double { _time }
    @usableFromInline var _time: Double
    public var state: State { storage.state }
    public var previousTime: Double { _previousTime }
    @usableFromInline var _previousTime: Double
    public var previousState: State { storage.previousState }
    public var steps: Int { _steps }
    @usableFromInline var _steps: Int = 0
    public var evaluations: Int { _steps * Method.evaluationsPerStep + storage.evaluations }
    @usableFromInline var storage: Storage

    /// - Precondition: `timeStep` is finite and > 0 (validated by the callers that take user input).
    @inlinable
    public init(
        system: System, storage: Storage.Type, method: Method.Type = Method.self, time: Double = 0, state: State,
        timeStep: Double
    ) {
        precondition(timeStep > 0 && timeStep.isFinite, "timeStep must be finite and > 0")
        self.system = system
        self.timeStep = timeStep
        _time = time
        _previousTime = time
        self.storage = Storage(system: system, time: time, state: state)
    }

    /// With the states as values of the system's vector type.
    @inlinable
    public init<S: SecondOrderSystem>(
        system: S, method: Method.Type = Method.self, time: Double = 0, state: State, timeStep: Double
    ) where Storage == PackedStepStorage<S> {
        self.init(
            system: system, storage: PackedStepStorage<S>.self, method: method, time: time, state: state,
            timeStep: timeStep)
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
        let timeStep = self.timeStep
        var time = _time, previousTime = _previousTime, taken = 0
        repeat {
            let remaining = limit - time
            // Absorb a sliver left by rounding rather than take a step of 1e-16 s.
            let h = remaining <= timeStep * (1 + 1e-9) ? remaining : timeStep
            previousTime = time
            storage.step(Method.self, system, time: time, by: h)
            time = h == remaining ? limit : time + h
            taken &+= 1
        } while taken < 64 && time < target
        _time = time
        _previousTime = previousTime
        _steps += taken
    }

    @inlinable
    public func interpolate(at t: Double) -> State {
        let h = time - previousTime
        if h <= 0 || t >= time { return state }
        if t <= previousTime { return previousState }
        let s = (t - previousTime) / h
        let a = storage.accelerations(system, previousTime: previousTime, time: time)
        return PhaseState(
            position: Hermite.value(
                previousState.position, previousState.velocity, state.position, state.velocity, s, h),
            velocity: Hermite.value(previousState.velocity, a.start, state.velocity, a.end, s, h))
    }

    /// Lane by lane, so flat storage builds no vector.
    @inlinable
    public func interpolatePosition(at t: Double, lanes: Range<Int>) -> SIMD3<Double> {
        let h = time - previousTime, x0 = previousState.position, x1 = state.position
        return SIMD3(gathering: lanes) { lane in
            if h <= 0 || t >= time { return x1[lane: lane] }
            if t <= previousTime { return x0[lane: lane] }
            return Hermite.value(
                x0[lane: lane], previousState.velocity[lane: lane], x1[lane: lane], state.velocity[lane: lane],
                (t - previousTime) / h, h)
        }
    }

    @inlinable
    public mutating func restart(at time: Double, state: State) {
        _time = time
        _previousTime = time
        storage.restart(system, time: time, state: state)
    }
}
