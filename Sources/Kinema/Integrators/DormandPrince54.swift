import RealModule

/// Dormand–Prince 5(4) with Hairer's PI step-size control and 4th-order dense output: the method
/// of dopri5.f, MATLAB's ode45 and scipy's RK45, for animation tolerances.
///
/// Control: error in Hairer's scaled RMS norm (`ErrorNorm.swift`); PI step factor
/// `0.9·err^(−1/5)·(errₚᵣₑᵥ/err)^β` with β = 0.04 (Gustafsson's form, `StepSizeController`). The
/// proportional term acts on the error ratio, so in steady state the controller settles where the
/// classic one does (err = 0.9⁵ ≈ 0.59), and step counts match scipy's RK45 (481 steps on the
/// reference spring; Hairer's dopri5 form `err^(−0.2+0.75β)·errₚᵣₑᵥ^β`, which settles at
/// err ≈ 0.44, takes 510, 6 % more). Seven stages with the last reused (FSAL): six evaluations per
/// accepted step. Written once over `StageRegisters`; `Storage` holds the states as values
/// (`PackedDormandPrinceStorage`, the default) or in one workspace (`FlatDormandPrinceStorage`).
@_spi(Engine) public struct DormandPrince54<Storage: DormandPrinceStorage>: Integrator {
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
    @usableFromInline var _steps: Int = 0
    public var rejectedSteps: Int { control.rejectedSteps }
    public var evaluations: Int { _evaluations }
    @usableFromInline var _evaluations: Int = 0

    @usableFromInline var storage: Storage
    @usableFromInline var control = StepSizeController(.dormandPrince54, stepSize: 0)

    /// - Precondition: tolerances finite and > 0 (validated by the callers that take user input).
    @inlinable
    public init(
        system: System, storage: Storage.Type, time: Double = 0, state: State,
        absoluteTolerance: Double, relativeTolerance: Double, maximumStep: Double = .infinity
    ) {
        precondition(absoluteTolerance > 0 && relativeTolerance >= 0, "tolerances must be > 0")
        self.system = system
        self.absoluteTolerance = absoluteTolerance
        self.relativeTolerance = relativeTolerance
        self.maximumStep = maximumStep
        _time = time
        _previousTime = time
        self.storage = Storage(system: system, time: time, state: state)
        _evaluations = 1
        startStepSize()
    }

    /// With the states as values of the system's vector type.
    @inlinable
    public init<S: SecondOrderSystem>(
        system: S, time: Double = 0, state: State,
        absoluteTolerance: Double, relativeTolerance: Double, maximumStep: Double = .infinity
    ) where Storage == PackedDormandPrinceStorage<S> {
        self.init(
            system: system, storage: Storage.self, time: time, state: state, absoluteTolerance: absoluteTolerance,
            relativeTolerance: relativeTolerance, maximumStep: maximumStep)
    }

    @inlinable
    mutating func startStepSize() {
        control.restart(
            stepSize: initialStep(
                system, time: time, state: state, derivative: storage.derivative, order: 4,
                absolute: absoluteTolerance, relative: relativeTolerance, maximumStep: maximumStep))
        _evaluations += 1
    }

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
            let accepted = storage.withRegisters(system) { r, system in
                let c21 = h * 0.2
                r.forEachLane { r, i in r[.stage, i] = r[.y, i] + c21 * r[.k1, i] }
                r.derivative(of: .stage, into: .k2, time: t + 0.2 * h, system)
                let (c31, c32) = (h * (3.0 / 40), h * (9.0 / 40))
                r.forEachLane { r, i in r[.stage, i] = (r[.y, i] + c31 * r[.k1, i]) + c32 * r[.k2, i] }
                r.derivative(of: .stage, into: .k3, time: t + 0.3 * h, system)
                let (c41, c42, c43) = (h * (44.0 / 45), h * (-56.0 / 15), h * (32.0 / 9))
                r.forEachLane { r, i in
                    r[.stage, i] = ((r[.y, i] + c41 * r[.k1, i]) + c42 * r[.k2, i]) + c43 * r[.k3, i]
                }
                r.derivative(of: .stage, into: .k4, time: t + 0.8 * h, system)
                let (c51, c52) = (h * (19372.0 / 6561), h * (-25360.0 / 2187))
                let (c53, c54) = (h * (64448.0 / 6561), h * (-212.0 / 729))
                r.forEachLane { r, i in
                    r[.stage, i] =
                        (((r[.y, i] + c51 * r[.k1, i]) + c52 * r[.k2, i]) + c53 * r[.k3, i]) + c54 * r[.k4, i]
                }
                r.derivative(of: .stage, into: .k5, time: t + (8.0 / 9) * h, system)
                let (c61, c62, c63) = (h * (9017.0 / 3168), h * (-355.0 / 33), h * (46732.0 / 5247))
                let (c64, c65) = (h * (49.0 / 176), h * (-5103.0 / 18656))
                r.forEachLane { r, i in
                    r[.stage, i] =
                        ((((r[.y, i] + c61 * r[.k1, i]) + c62 * r[.k2, i]) + c63 * r[.k3, i]) + c64 * r[.k4, i])
                        + c65 * r[.k5, i]
                }
                r.derivative(of: .stage, into: .k6, time: t + h, system)
                let (b1, b3, b4) = (h * (35.0 / 384), h * (500.0 / 1113), h * (125.0 / 192))
                let (b5, b6) = (h * (-2187.0 / 6784), h * (11.0 / 84))
                r.forEachLane { r, i in
                    r[.y1, i] =
                        ((((r[.y, i] + b1 * r[.k1, i]) + b3 * r[.k3, i]) + b4 * r[.k4, i]) + b5 * r[.k5, i])
                        + b6 * r[.k6, i]
                }
                r.derivative(of: .y1, into: .k7, time: tNew, system)
                let (e1, e3, e4) = (h * (71.0 / 57600), h * (-71.0 / 16695), h * (71.0 / 1920))
                let (e5, e6, e7) = (h * (-17253.0 / 339200), h * (22.0 / 525), h * (-1.0 / 40))
                var sum = 0.0
                r.forEachLane { r, i in
                    let estimate =
                        ((((e1 * r[.k1, i] + e3 * r[.k3, i]) + e4 * r[.k4, i]) + e5 * r[.k5, i]) + e6 * r[.k6, i])
                        + e7 * r[.k7, i]
                    sum += squaredScaledError(estimate, r[.y, i], r[.y1, i], absolute: atol, relative: rtol)
                }
                let error = (sum / lanes).squareRoot()
                guard control.accepts(error, step: h, remaining: remaining, maximumStep: maximumStep) else {
                    return false
                }
                Self.accept(&r, h)
                return true
            }
            _evaluations += 6
            if accepted {
                _previousTime = t
                _time = tNew
                _steps += 1
                return
            }
        }
        throw SimulationError.stepSizeUnderflow(time: t, step: control.stepSize)
    }

    /// After an accepted step of size h: the dense output, then y1 becomes y, k7 becomes k1.
    @inlinable @inline(__always)
    static func accept<R: StageRegisters>(_ r: inout R, _ h: Double) {
        let (d1, d3) = (h * (-12715105075.0 / 11282082432), h * (87487479700.0 / 32700410799))
        let (d4, d5) = (h * (-10690763975.0 / 1880347072), h * (701980252875.0 / 199316789632))
        let (d6, d7) = (h * (-1453857185.0 / 822651844), h * (69997945.0 / 29380423))
        r.forEachLane { r, i in
            let ydiff = r[.y1, i] - r[.y, i]
            let bspl = h * r[.k1, i] - ydiff
            r[.r1, i] = r[.y, i]
            r[.r2, i] = ydiff
            r[.r3, i] = bspl
            r[.r4, i] = (ydiff - h * r[.k7, i]) - bspl
            r[.r5, i] =
                ((((d1 * r[.k1, i] + d3 * r[.k3, i]) + d4 * r[.k4, i]) + d5 * r[.k5, i]) + d6 * r[.k6, i])
                + d7 * r[.k7, i]
            r[.y, i] = r[.y1, i]
            r[.k1, i] = r[.k7, i]
        }
    }

    @inlinable
    public func interpolate(at t: Double) -> State {
        let h = time - previousTime
        if h <= 0 || t >= time { return state }
        return storage.interpolate(at: t <= previousTime ? 0 : (t - previousTime) / h)
    }

    @inlinable
    public func interpolatePosition(at t: Double, lanes: Range<Int>) -> SIMD3<Double> {
        let h = time - previousTime
        if h <= 0 || t >= time { return storage.interpolatePosition(at: nil, lanes: lanes) }
        return storage.interpolatePosition(at: t <= previousTime ? 0 : (t - previousTime) / h, lanes: lanes)
    }

    @inlinable
    public mutating func restart(at time: Double, state: State) {
        _time = time
        _previousTime = time
        storage.restart(system, time: time, state: state)
        _evaluations += 1
        startStepSize()
    }
}
