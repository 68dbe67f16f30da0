import RealModule

/// Dormand–Prince 5(4) with Hairer's PI step-size control and 4th-order dense output: the method
/// of dopri5.f, MATLAB's ode45 and scipy's RK45, for animation tolerances.
///
/// Control: error in Hairer's scaled RMS norm (`ErrorNorm.swift`); PI step factor
/// `0.9·err^(−1/5)·(errₚᵣₑᵥ/err)^β` with β = 0.04 (Gustafsson's form, `StepSizeController`). The proportional term acts on the error ratio, so in steady
/// state the controller settles where the classic one does (err = 0.9⁵ ≈ 0.59), and step counts
/// match scipy's RK45 (481 steps on the reference spring; Hairer's dopri5 form
/// `err^(−0.2+0.75β)·errₚᵣₑᵥ^β`, which settles at err ≈ 0.44, takes 510, 6 % more).
/// Seven stages with the last reused (FSAL): six evaluations per accepted step.
@_spi(Engine) public struct DormandPrince54<System: SecondOrderSystem>: Integrator {
    public typealias State = PhaseState<System.Vector>

    public var system: System
    public let absoluteTolerance: Double
    public let relativeTolerance: Double
    public let maximumStep: Double
    public var time: Double { _time }
    @usableFromInline var _time: Double
    public var state: State { _state }
    @usableFromInline var _state: State
    public var previousTime: Double { _previousTime }
    @usableFromInline var _previousTime: Double
    public var steps: Int { _steps }
    @usableFromInline var _steps: Int = 0
    public var rejectedSteps: Int { control.rejectedSteps }
    public var evaluations: Int { _evaluations }
    @usableFromInline var _evaluations: Int = 0

    @usableFromInline var derivative: State
    @usableFromInline var control = StepSizeController(.dormandPrince54, stepSize: 0)
    // Dense output: y(θ) = r1 + θ(r2 + (1−θ)(r3 + θ(r4 + (1−θ)r5))).
    @usableFromInline var r1: State, r2: State, r3: State, r4: State, r5: State

    /// - Precondition: tolerances finite and > 0 (validated by the callers that take user input).
    @inlinable
    public init(
        system: System, time: Double = 0, state: State,
        absoluteTolerance: Double, relativeTolerance: Double, maximumStep: Double = .infinity
    ) {
        precondition(absoluteTolerance > 0 && relativeTolerance >= 0, "tolerances must be > 0")
        self.system = system
        self.absoluteTolerance = absoluteTolerance
        self.relativeTolerance = relativeTolerance
        self.maximumStep = maximumStep
        _time = time
        _state = state
        _previousTime = time
        derivative = system.derivative(of: state, at: time)
        r1 = state; r2 = .zero; r3 = .zero; r4 = .zero; r5 = .zero
        _evaluations = 1
        startStepSize()
    }

    @inlinable
    mutating func startStepSize() {
        control.restart(
            stepSize: initialStep(
                system, time: time, state: state, derivative: derivative, order: 4,
                absolute: absoluteTolerance, relative: relativeTolerance, maximumStep: maximumStep))
        _evaluations += 1
    }

    @inlinable
    public mutating func advance(toward limit: Double) throws {
        let t = time, y = state, k1 = derivative
        for _ in 0..<10_000 {
            let remaining = limit - t
            let h = try control.trialStep(at: t, remaining: remaining)
            // Sums built term by term: one long generic expression defeats the type checker.
            var stage = y + (h * 0.2) * k1
            let k2 = system.derivative(of: stage, at: t + 0.2 * h)
            stage = y + (h * (3.0 / 40)) * k1
            stage = stage + (h * (9.0 / 40)) * k2
            let k3 = system.derivative(of: stage, at: t + 0.3 * h)
            stage = y + (h * (44.0 / 45)) * k1
            stage = stage + (h * (-56.0 / 15)) * k2
            stage = stage + (h * (32.0 / 9)) * k3
            let k4 = system.derivative(of: stage, at: t + 0.8 * h)
            stage = y + (h * (19372.0 / 6561)) * k1
            stage = stage + (h * (-25360.0 / 2187)) * k2
            stage = stage + (h * (64448.0 / 6561)) * k3
            stage = stage + (h * (-212.0 / 729)) * k4
            let k5 = system.derivative(of: stage, at: t + (8.0 / 9) * h)
            stage = y + (h * (9017.0 / 3168)) * k1
            stage = stage + (h * (-355.0 / 33)) * k2
            stage = stage + (h * (46732.0 / 5247)) * k3
            stage = stage + (h * (49.0 / 176)) * k4
            stage = stage + (h * (-5103.0 / 18656)) * k5
            let k6 = system.derivative(of: stage, at: t + h)
            var y1 = y + (h * (35.0 / 384)) * k1
            y1 = y1 + (h * (500.0 / 1113)) * k3
            y1 = y1 + (h * (125.0 / 192)) * k4
            y1 = y1 + (h * (-2187.0 / 6784)) * k5
            y1 = y1 + (h * (11.0 / 84)) * k6
            let tNew = h == remaining ? limit : t + h
            let k7 = system.derivative(of: y1, at: tNew)
            _evaluations += 6
            var errorEstimate = (h * (71.0 / 57600)) * k1
            errorEstimate = errorEstimate + (h * (-71.0 / 16695)) * k3
            errorEstimate = errorEstimate + (h * (71.0 / 1920)) * k4
            errorEstimate = errorEstimate + (h * (-17253.0 / 339200)) * k5
            errorEstimate = errorEstimate + (h * (22.0 / 525)) * k6
            errorEstimate = errorEstimate + (h * (-1.0 / 40)) * k7
            let error = scaledNorm(errorEstimate, y, y1, absolute: absoluteTolerance, relative: relativeTolerance)
            if control.accepts(error, step: h, remaining: remaining, maximumStep: maximumStep) {
                // dense output
                let ydiff = y1 - y
                let bspl = h * k1 - ydiff
                r1 = y
                r2 = ydiff
                r3 = bspl
                r4 = ydiff - h * k7 - bspl
                var dense = (h * (-12715105075.0 / 11282082432)) * k1
                dense = dense + (h * (87487479700.0 / 32700410799)) * k3
                dense = dense + (h * (-10690763975.0 / 1880347072)) * k4
                dense = dense + (h * (701980252875.0 / 199316789632)) * k5
                dense = dense + (h * (-1453857185.0 / 822651844)) * k6
                r5 = dense + (h * (69997945.0 / 29380423)) * k7
                _previousTime = t
                _time = tNew
                _state = y1
                derivative = k7
                _steps += 1
                return
            }
        }
        throw SimulationError.stepSizeUnderflow(time: t, step: control.stepSize)
    }

    @inlinable
    public func interpolate(at t: Double) -> State {
        let h = time - previousTime
        if h <= 0 || t >= time { return state }
        if t <= previousTime { return r1 }
        let theta = (t - previousTime) / h, theta1 = 1 - theta
        return r1 + theta * (r2 + theta1 * (r3 + theta * (r4 + theta1 * r5)))
    }

    @inlinable
    public mutating func restart(at time: Double, state: State) {
        _time = time
        _state = state
        _previousTime = time
        r1 = state
        derivative = system.derivative(of: state, at: time)
        _evaluations += 1
        startStepSize()
    }
}
