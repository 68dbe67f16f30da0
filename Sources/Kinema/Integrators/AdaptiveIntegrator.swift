/// Steps a system with an embedded Runge–Kutta pair (`DormandPrince54`, `DOP853`), each step's size
/// chosen by `StepSizeController` from the pair's error estimate, and interpolates inside the last
/// step with the pair's dense output, built only for steps that are interpolated. `Storage` holds
/// the states as values (`PackedAdaptiveStorage`, the default) or in one workspace
/// (`FlatAdaptiveStorage`).
@_spi(Engine) public struct AdaptiveIntegrator<Storage: AdaptiveStorage, Method: AdaptiveMethod>: Integrator {
    public typealias System = Storage.System
    public typealias State = PhaseState<System.Vector>

    public var system: System
    public let absoluteTolerance: Double
    public let relativeTolerance: Double
    public let maximumStep: Double
    public var time: Double { _time }
    @usableFromInline var _time: Double
    public var state: State { storage.state }
    public var previousTime: Double { _previousTime }
    @usableFromInline var _previousTime: Double
    public var steps: Int { _steps }
    @usableFromInline var _steps = 0
    public var rejectedSteps: Int { control.rejectedSteps }
    public var evaluations: Int { _evaluations }
    @usableFromInline var _evaluations = 0

    @usableFromInline var storage: Storage
    @usableFromInline var control = StepSizeController(Method.law, stepSize: 0)
    /// The last step's size h (time − previousTime can differ from it in the last bit).
    @usableFromInline var lastStepSize = 0.0
    /// Whether the storage holds the last step's dense output.
    @usableFromInline var denseIsCurrent = true

    /// - Precondition: tolerances finite and > 0 (validated by the callers that take user input).
    @inlinable
    public init(
        system: System, storage: Storage.Type, method: Method.Type = Method.self, time: Double = 0, state: State,
        absoluteTolerance: Double, relativeTolerance: Double, maximumStep: Double = .infinity
    ) {
        precondition(absoluteTolerance > 0 && relativeTolerance >= 0, "tolerances must be > 0")
        self.system = system
        self.absoluteTolerance = absoluteTolerance
        self.relativeTolerance = relativeTolerance
        self.maximumStep = maximumStep
        _time = time
        _previousTime = time
        self.storage = Storage(system: system, time: time, state: state, registers: Method.lastRegister)
        _evaluations = 1
        startStepSize()
    }

    /// With the states as values of the system's vector type.
    @inlinable
    public init<S: SecondOrderSystem>(
        system: S, method: Method.Type = Method.self, time: Double = 0, state: State,
        absoluteTolerance: Double, relativeTolerance: Double, maximumStep: Double = .infinity
    ) where Storage == PackedAdaptiveStorage<S> {
        self.init(
            system: system, storage: Storage.self, method: method, time: time, state: state,
            absoluteTolerance: absoluteTolerance, relativeTolerance: relativeTolerance, maximumStep: maximumStep)
    }

    @inlinable
    mutating func startStepSize() {
        control.restart(
            stepSize: initialStep(
                system, time: time, state: state, derivative: storage.derivative, order: Method.order,
                absolute: absoluteTolerance, relative: relativeTolerance, maximumStep: maximumStep))
        _evaluations += 1
    }

    /// Takes one accepted step toward `limit` (ending exactly on it when it is within reach),
    /// retrying with smaller steps while the error estimate exceeds the tolerance.
    /// - Throws: `SimulationError.stepSizeUnderflow` when the step falls below 1e-14·|t|.
    @inlinable
    public mutating func advance(toward limit: Double) throws {
        let t = time, atol = absoluteTolerance, rtol = relativeTolerance, maximumStep = self.maximumStep
        let lanes = Double(State.laneCount(of: state))
        // A local copy: the step decides inside the storage's registers whether it is accepted.
        var control = self.control
        defer { self.control = control }
        for _ in 0..<10_000 {
            let remaining = limit - t
            let h = try control.trialStep(at: t, remaining: remaining)
            let tNew = h == remaining ? limit : t + h
            let accepted = storage.step(system, keeping: Method.lastKept) { registers, system in
                // A local copy (of the values, or of the view of a workspace), so that the stages
                // stay in CPU registers: written through `registers`, each went to memory.
                var r = registers
                let error = Method.trial(
                    &r, system, time: t, step: h, end: tNew, absolute: atol, relative: rtol, lanes: lanes)
                guard control.accepts(error, step: h, remaining: remaining, maximumStep: maximumStep) else {
                    return false
                }
                registers = r
                return true
            }
            _evaluations += Method.evaluationsPerStep
            if accepted {
                _previousTime = t
                _time = tNew
                lastStepSize = h
                denseIsCurrent = false
                _steps += 1
                return
            }
        }
        throw SimulationError.stepSizeUnderflow(time: t, step: control.stepSize)
    }

    /// Builds the last step's dense output once, so `interpolate` reuses it.
    @inlinable
    public mutating func prepareInterpolation() {
        guard !denseIsCurrent else { return }
        let t = previousTime, h = lastStepSize
        storage.withRegisters(system) { r, system in Method.denseOutput(&r, system, time: t, step: h) }
        denseIsCurrent = true
        _evaluations += Method.denseEvaluations
    }

    @inlinable
    public func interpolate(at t: Double) -> State {
        var copy = self
        return copy.interpolateInPlace(at: t)
    }

    @inlinable
    public mutating func interpolateInPlace(at t: Double) -> State {
        let h = time - previousTime
        if h <= 0 || t >= time { return state }
        prepareInterpolation()
        return storage.interpolate(Method.self, at: t <= previousTime ? 0 : (t - previousTime) / h)
    }

    @inlinable
    public func interpolatePosition(at t: Double, lanes: Range<Int>) -> SIMD3<Double> {
        let h = time - previousTime
        if h <= 0 || t >= time { return storage.interpolatePosition(Method.self, at: nil, lanes: lanes) }
        guard denseIsCurrent else { return prepared.interpolatePosition(at: t, lanes: lanes) }
        return storage.interpolatePosition(
            Method.self, at: t <= previousTime ? 0 : (t - previousTime) / h, lanes: lanes)
    }

    @inlinable
    public mutating func restart(at time: Double, state: State) {
        _time = time
        _previousTime = time
        denseIsCurrent = true
        storage.restart(system, time: time, state: state)
        _evaluations += 1
        startStepSize()
    }
}
