import RealModule

/// Dormand–Prince 8(5,3) (Hairer's dop853) with 7th-order dense output, for tight tolerances.
///
/// Twelve stages (the last reused, FSAL) per step, an error estimate that blends the 5th- and
/// 3rd-order embedded solutions as dop853.f does, step control with exponent 1/8 (safety 0.9,
/// factors clamped to [1/6, 3]), and three extra stages after each accepted step for the dense
/// output. The stage vectors live in a workspace allocated once, at initialization.
public struct DOP853<System: SecondOrderSystem>: Integrator {
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
    @usableFromInline var _steps = 0
    public var rejectedSteps: Int { _rejectedSteps }
    @usableFromInline var _rejectedSteps = 0
    public var evaluations: Int { _evaluations }
    @usableFromInline var _evaluations = 0

    @usableFromInline var stepSize = 0.0
    @usableFromInline var rejectedLast = false
    /// Stage derivatives k0…k15 (k12 is f at the step's end): scratch, allocated once and used
    /// only within one call of `advance`. k0 is copied in from `derivative` (FSAL) each step.
    @usableFromInline let workspace: Workspace
    /// f at the current state.
    @usableFromInline var derivative: State
    /// Dense-output polynomial coefficients F0…F6 and the step's start state.
    @usableFromInline var dense: ContiguousArray<State>
    @usableFromInline var previousState: State

    @inlinable
    public init(system: System, time: Double = 0, state: State,
                absoluteTolerance: Double, relativeTolerance: Double, maximumStep: Double = .infinity) {
        precondition(absoluteTolerance > 0 && relativeTolerance >= 0, "tolerances must be > 0")
        self.system = system
        self.absoluteTolerance = absoluteTolerance
        self.relativeTolerance = relativeTolerance
        self.maximumStep = maximumStep
        _time = time
        _state = state
        _previousTime = time
        previousState = state
        workspace = Workspace()
        dense = ContiguousArray(repeating: .zero, count: 7)
        derivative = system.derivative(of: state, at: time)
        _evaluations = 1
        startStepSize()
    }

    @inlinable
    mutating func startStepSize() {
        stepSize = initialStep(system, time: _time, state: _state, derivative: derivative, order: 7,
                               absolute: absoluteTolerance, relative: relativeTolerance, maximumStep: maximumStep)
        _evaluations += 1
    }

    @inlinable
    public mutating func advance(toward limit: Double) throws {
        let t = _time, y = _state
        let c = DOP853Tableau.c, a = DOP853Tableau.aFlat, b = DOP853Tableau.b
        let e5 = DOP853Tableau.e5, e3 = DOP853Tableau.e3
        let k = workspace.stages
        k[0] = derivative
        for _ in 0..<10_000 {
            let remaining = limit - t
            let h = min(stepSize, remaining)
            guard h > 1e-14 * max(1, abs(t)) || h == remaining else {
                throw SimulationError.stepSizeUnderflow(time: t, step: h)
            }
            for i in 1..<12 {
                var stage = y
                let row = i * (i - 1) / 2
                for j in 0..<i where a[row + j] != 0 { stage = stage + (h * a[row + j]) * k[j] }
                k[i] = system.derivative(of: stage, at: t + c[i] * h)
            }
            var y1 = y
            for j in 0..<12 where b[j] != 0 { y1 = y1 + (h * b[j]) * k[j] }
            let tNew = h == remaining ? limit : t + h
            k[12] = system.derivative(of: y1, at: tNew)
            _evaluations += 12
            var error5 = State.zero, error3 = State.zero
            for j in 0..<13 {
                if e5[j] != 0 { error5 = error5 + e5[j] * k[j] }
                if e3[j] != 0 { error3 = error3 + e3[j] * k[j] }
            }
            var sum5 = 0.0, sum3 = 0.0
            for i in 0..<State.laneCount {
                let scale = absoluteTolerance + relativeTolerance * max(abs(y[lane: i]), abs(y1[lane: i]))
                let q5 = error5[lane: i] / scale, q3 = error3[lane: i] / scale
                sum5 += q5 * q5
                sum3 += q3 * q3
            }
            let denominator = sum5 + 0.01 * sum3
            let error = denominator > 0 ? abs(h) * sum5 / (denominator * Double(State.laneCount)).squareRoot() : 0
            guard error.isFinite else {
                stepSize = 0.2 * h
                _rejectedSteps += 1
                rejectedLast = true
                continue
            }
            let factor = min(3, max(1.0 / 6, Double.pow(error, 1.0 / 8) / 0.9))
            if error <= 1 {
                var next = min(h / factor, maximumStep)
                if rejectedLast { next = min(next, h) }
                rejectedLast = false
                _previousTime = t
                previousState = y
                _time = tNew
                _state = y1
                prepareDenseOutput(h: h)
                derivative = k[12]
                stepSize = h == remaining && h < stepSize ? max(stepSize, next) : next
                _steps += 1
                return
            }
            stepSize = h / factor
            _rejectedSteps += 1
            rejectedLast = true
        }
        throw SimulationError.stepSizeUnderflow(time: t, step: stepSize)
    }

    /// The three extra stages and the coefficients of the 7th-order interpolant.
    @inlinable
    mutating func prepareDenseOutput(h: Double) {
        let c = DOP853Tableau.c, a = DOP853Tableau.aFlat, d = DOP853Tableau.dFlat
        let t = _previousTime, y = previousState, k = workspace.stages
        for i in 13..<16 {
            var stage = y
            let row = i * (i - 1) / 2
            for j in 0..<i where a[row + j] != 0 { stage = stage + (h * a[row + j]) * k[j] }
            k[i] = system.derivative(of: stage, at: t + c[i] * h)
        }
        _evaluations += 3
        let deltaY = _state - y
        dense[0] = deltaY
        dense[1] = h * k[0] - deltaY
        dense[2] = 2 * deltaY - h * (k[12] + k[0])
        for row in 0..<4 {
            var sum = State.zero
            for j in 0..<16 where d[16 * row + j] != 0 { sum = sum + (h * d[16 * row + j]) * k[j] }
            dense[3 + row] = sum
        }
    }

    @inlinable
    public func interpolate(at t: Double) -> State {
        let h = _time - _previousTime
        if h <= 0 || t >= _time { return _state }
        if t <= _previousTime { return previousState }
        let x = (t - _previousTime) / h
        var y = State.zero
        for i in 0..<7 {
            y = y + dense[6 - i]
            y = (i % 2 == 0 ? x : 1 - x) * y
        }
        return previousState + y
    }

    @inlinable
    public mutating func restart(at time: Double, state: State) {
        _time = time
        _state = state
        _previousTime = time
        previousState = state
        derivative = system.derivative(of: state, at: time)
        _evaluations += 1
        rejectedLast = false
        startStepSize()
    }
}

extension DOP853 {
    /// Scratch for the sixteen stage vectors, allocated once per integrator (shared by copies,
    /// which is safe because it holds nothing between calls; not for use from two threads at once).
    public final class Workspace {
        @usableFromInline let stages: UnsafeMutablePointer<PhaseState<System.Vector>>

        @usableFromInline init() {
            stages = .allocate(capacity: 16)
            stages.initialize(repeating: .zero, count: 16)
        }

        deinit {
            stages.deinitialize(count: 16)
            stages.deallocate()
        }
    }
}
