/// DOP853 on a scene in flat storage, stage by stage in place: the lanes of `DOP853`'s arithmetic
/// (same terms in the same order, same step control; the stage loops are generated with it by
/// scripts/generate-dop853.py), over one workspace allocated at creation, so both agree to the
/// last bit and a step allocates nothing.
///
/// Workspace slots of 2n lanes (positions, then velocities): y (the last step's start), k0…k15,
/// the stage being built, y1 (the state reached), F0…F6 (the interpolant). After a step, y and k0
/// still describe its start, which the dense output needs; the next step swaps the slots of y and
/// y1, and of k0 and k12, instead of copying them.
@_spi(Engine) public struct FlatDOP853: Integrator {
    public typealias System = SceneSystem<FlatVector>
    public typealias State = PhaseState<FlatVector>

    /// Setting it (a contact starting or ending) recomputes the derivative at the current state.
    public var system: System {
        didSet {
            evaluate(at: stepTaken ? ends.y1 : ends.y, into: stepTaken ? ends.k12 : ends.k0)
        }
    }
    public let absoluteTolerance: Double
    public let relativeTolerance: Double
    public private(set) var time: Double
    public private(set) var state: State
    public private(set) var previousTime: Double
    public private(set) var steps = 0
    public var rejectedSteps: Int { control.rejectedSteps }
    public private(set) var evaluations = 0

    var control = StepSizeController(.dop853, stepSize: 0)
    /// Whether y1 and k12 hold the state reached (a step was accepted since the last restart).
    var stepTaken = false
    /// The slots of the step's ends: y and k0 (its start), y1 and k12 (its end).
    var ends = Ends(y: 0, k0: 1, y1: 18, k12: 13)
    var denseIsCurrent = true
    /// The last step's size h (time − previousTime can differ from it in the last bit).
    var lastStepSize = 0.0
    var work: [Double]
    let count: Int

    static let f0Slot = 19, slots = 26

    struct Ends {
        var y, k0, y1, k12: Int

        /// The step's end becomes the next step's start.
        var swapped: Ends { Ends(y: y1, k0: k12, y1: y, k12: k0) }
    }

    /// - Precondition: tolerances finite and > 0 (validated by the callers that take user input).
    public init(system: System, time: Double = 0, state: State, absoluteTolerance: Double, relativeTolerance: Double) {
        precondition(absoluteTolerance > 0 && relativeTolerance >= 0, "tolerances must be > 0")
        count = system.scene.coordinateCount
        work = Array(repeating: 0, count: Self.slots * 2 * count)
        self.system = system
        self.absoluteTolerance = absoluteTolerance
        self.relativeTolerance = relativeTolerance
        self.time = time
        self.state = state.owned(sizedTo: count)
        previousTime = time
        start()
    }

    /// From `state` at `time`: into the y slot, its derivative into k0, a first step size.
    mutating func start() {
        let n = count, y = 2 * n * ends.y, k0 = 2 * n * ends.k0
        work.withUnsafeMutableBufferPointer { state.write(to: $0.baseAddress! + y, count: n) }
        stepTaken = false
        denseIsCurrent = true
        evaluate(at: ends.y, into: ends.k0)
        let derivative = work.withUnsafeBufferPointer { State(lanes: $0.baseAddress! + k0, count: n) }
        control.restart(
            stepSize: initialStep(
                system, time: time, state: state, derivative: derivative, order: 7,
                absolute: absoluteTolerance, relative: relativeTolerance, maximumStep: .infinity))
        evaluations += 1
    }

    mutating func evaluate(at slot: Int, into target: Int) {
        let n = count, layout = system.layout, resting = system.resting
        work.withUnsafeMutableBufferPointer { w in
            layout.derivative(
                of: w.baseAddress! + slot * 2 * n, into: w.baseAddress! + target * 2 * n, resting: resting)
        }
        evaluations += 1
    }

    public mutating func advance(toward limit: Double) throws {
        let t = time, n = count, m = 2 * count, layout = system.layout, resting = system.resting
        let atol = absoluteTolerance, rtol = relativeTolerance
        if stepTaken {  // the state reached becomes the next step's start
            ends = ends.swapped
            stepTaken = false
        }
        let ends = self.ends
        for _ in 0..<10_000 {
            let remaining = limit - t
            let h = try control.trialStep(at: t, remaining: remaining)
            let tNew = h == remaining ? limit : t + h
            let error = work.withUnsafeMutableBufferPointer {
                Self.trial(layout, resting, $0.baseAddress!, n, ends, step: h, absolute: atol, relative: rtol)
            }
            evaluations += 12
            if control.accepts(error, step: h, remaining: remaining, maximumStep: .infinity) {
                previousTime = t
                time = tNew
                work.withUnsafeBufferPointer { state.load(from: $0.baseAddress! + ends.y1 * m, count: n) }
                stepTaken = true
                denseIsCurrent = false
                lastStepSize = h
                steps += 1
                return
            }
        }
        throw SimulationError.stepSizeUnderflow(time: t, step: control.stepSize)
    }

    /// The last step's interpolant (three more evaluations), once per step.
    public mutating func prepareInterpolation() {
        guard !denseIsCurrent else { return }
        let n = count, h = lastStepSize, layout = system.layout, resting = system.resting, ends = self.ends
        work.withUnsafeMutableBufferPointer { Self.denseOutput(layout, resting, $0.baseAddress!, n, ends, step: h) }
        denseIsCurrent = true
        evaluations += 3
    }

    /// Lane `lane` (of 2n) at x = (t − previousTime)/h: y + x(F0 + (1−x)(F1 + x(F2 + (1−x)(F3 + x(F4 + (1−x)(F5 + x·F6)))))).
    @inline(__always)
    func dense(_ lane: Int, _ x: Double) -> Double {
        let m = 2 * count, f = Self.f0Slot * m + lane
        let y = (1 - x) * (work[f + 5 * m] + x * work[f + 6 * m])
        let offset =
            x
            * (work[f] + (1 - x)
                * (work[f + m] + x * (work[f + 2 * m] + (1 - x) * (work[f + 3 * m] + x * (work[f + 4 * m] + y)))))
        return work[ends.y * m + lane] + offset
    }

    public func interpolate(at t: Double) -> State {
        let h = time - previousTime
        if h <= 0 || t >= time { return state }
        guard denseIsCurrent else {
            var prepared = self  // the driver prepares first; this path copies the workspace
            prepared.prepareInterpolation()
            return prepared.interpolate(at: t)
        }
        var result = State.zero(like: state)
        let m = 2 * count
        for i in 0..<count {
            if t <= previousTime {
                result.position.lanes[i] = work[ends.y * m + i]
                result.velocity.lanes[i] = work[ends.y * m + count + i]
            } else {
                result.position.lanes[i] = dense(i, (t - previousTime) / h)
                result.velocity.lanes[i] = dense(count + i, (t - previousTime) / h)
            }
        }
        return result
    }

    public func interpolatePosition(at t: Double, lanes: Range<Int>) -> SIMD3<Double> {
        let h = time - previousTime
        guard h > 0, t < time, denseIsCurrent else {
            let x = interpolate(at: t).position
            var v = SIMD3<Double>.zero
            for (axis, lane) in lanes.enumerated() { v[axis] = x.lanes[lane] }
            return v
        }
        var v = SIMD3<Double>.zero
        for (axis, lane) in lanes.enumerated() {
            v[axis] = t <= previousTime ? work[ends.y * 2 * count + lane] : dense(lane, (t - previousTime) / h)
        }
        return v
    }

    public mutating func restart(at time: Double, state: State) {
        self.time = time
        self.state = state.owned(sizedTo: count)
        previousTime = time
        start()
    }
}
