import RealModule

/// Dormand–Prince 8(5,3) (Hairer's dop853) with 7th-order dense output, for tight tolerances.
///
/// Twelve stages (the last reused, FSAL) per step, an error estimate that blends the 5th- and
/// 3rd-order embedded solutions as dop853.f does, step control with exponent 1/8 (safety 0.9,
/// factors clamped to [1/6, 3]), and three extra stages for the dense output of each accepted
/// step that is interpolated (`prepareInterpolation`). The step is generated with the tableau
/// unrolled (`DOP853+Step.swift`), so the stages are locals and nothing is allocated per step.
@_spi(Engine) public struct DOP853<System: SecondOrderSystem>: Integrator {
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
    public var rejectedSteps: Int { control.rejectedSteps }
    public var evaluations: Int { _evaluations }
    @usableFromInline var _evaluations = 0

    @usableFromInline var control = StepSizeController(.dop853, stepSize: 0)
    /// f at the current state.
    @usableFromInline var derivative: State
    /// The last step's start state, its stages, its interpolant once computed (its three extra
    /// stages cost a quarter of a step, so only steps that are interpolated pay for them).
    @usableFromInline var previousState: State
    @usableFromInline var lastStep: (derivative: State, size: Double)
    @usableFromInline var lastTrial: Trial
    @usableFromInline var dense: DenseOutput
    @usableFromInline var denseIsCurrent = true

    /// The coefficients F0…F6 of dop853's 7th-order interpolant, stored inline (no array to check
    /// for uniqueness and bounds on every write).
    @usableFromInline
    struct DenseOutput {
        @usableFromInline var f0, f1, f2, f3, f4, f5, f6: State

        @inlinable
        init(_ f0: State, _ f1: State, _ f2: State, _ f3: State, _ f4: State, _ f5: State, _ f6: State) {
            (self.f0, self.f1, self.f2, self.f3, self.f4, self.f5, self.f6) = (f0, f1, f2, f3, f4, f5, f6)
        }

        /// How many vectors `write(to:)` writes: F0…F6.
        @usableFromInline static var slotCount: Int { 7 }

        /// The coefficients from `slotCount` consecutive vectors.
        @inlinable
        init(slots p: UnsafePointer<State>) {
            self.init(p[0], p[1], p[2], p[3], p[4], p[5], p[6])
        }

        @inlinable
        func write(to p: UnsafeMutablePointer<State>) {
            (p[0], p[1], p[2], p[3], p[4], p[5], p[6]) = (f0, f1, f2, f3, f4, f5, f6)
        }

        /// y(t0 + x·h) − y(t0), by Horner in x and 1 − x alternately (dop853's contd8).
        @inlinable
        func offset(at x: Double) -> State {
            let y = (1 - x) * (f5 + x * f6)
            return x * (f0 + (1 - x) * (f1 + x * (f2 + (1 - x) * (f3 + x * (f4 + y)))))
        }
    }

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
        previousState = state
        lastStep = (.zero, 0)
        lastTrial = Trial(
            y1: state, error5: .zero, error3: .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero)
        dense = DenseOutput(.zero, .zero, .zero, .zero, .zero, .zero, .zero)
        derivative = system.derivative(of: state, at: time)
        _evaluations = 1
        startStepSize()
    }

    @inlinable
    mutating func startStepSize() {
        control.restart(
            stepSize: initialStep(
                system, time: _time, state: _state, derivative: derivative, order: 7,
                absolute: absoluteTolerance, relative: relativeTolerance, maximumStep: maximumStep))
        _evaluations += 1
    }

    @inlinable
    public func interpolate(at t: Double) -> State {
        let h = _time - _previousTime
        if h <= 0 || t >= _time { return _state }
        if t <= _previousTime { return previousState }
        let interpolant = denseIsCurrent ? dense : lastDenseOutput()
        return previousState + interpolant.offset(at: (t - _previousTime) / h)
    }

    /// Computes the last step's interpolant once (three evaluations), so `interpolate` reuses it.
    @inlinable
    public mutating func prepareInterpolation() {
        guard !denseIsCurrent else { return }
        dense = lastDenseOutput()
        denseIsCurrent = true
        _evaluations += 3
    }

    @inlinable
    func lastDenseOutput() -> DenseOutput {
        Self.denseOutput(
            system, time: _previousTime, state: previousState, derivative: lastStep.derivative,
            step: lastStep.size, lastTrial)
    }

    @inlinable
    public mutating func restart(at time: Double, state: State) {
        _time = time
        _state = state
        _previousTime = time
        previousState = state
        denseIsCurrent = true
        derivative = system.derivative(of: state, at: time)
        _evaluations += 1
        startStepSize()
    }
}
