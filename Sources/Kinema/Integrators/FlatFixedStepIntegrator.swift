/// A fixed-step method on a scene in flat storage, stage by stage in place: one workspace
/// allocated at creation, the method's in-place step (`FixedStepMethod.step(_:_:time:by:)`, lane
/// for lane its `step`, so both agree to the last bit), no temporaries per step.
///
/// The acceleration at the end of a step is the first the next step needs (computed once: 4
/// evaluations per RK4 step, 1 per Euler step, 2 per Verlet step) and, with the one at its start,
/// gives the cubic Hermite dense output that `FixedStepIntegrator` uses.
@_spi(Engine) public struct FlatFixedStepIntegrator<Method: FixedStepMethod>: Integrator {
    public typealias System = SceneSystem<FlatVector>
    public typealias State = PhaseState<FlatVector>

    /// Setting it (a contact starting or ending) recomputes the acceleration the next step starts from.
    public var system: System {
        didSet { evaluateEndAcceleration() }
    }
    public let timeStep: Double
    public private(set) var time: Double
    public private(set) var state: State
    public private(set) var previousTime: Double
    public private(set) var previousState: State
    public private(set) var steps = 0
    public private(set) var evaluations = 0

    /// Slots of n lanes: the accelerations at the last step's start and end, then seven of the
    /// method's scratch (`FlatStepLanes.slot`).
    @usableFromInline var work: [Double]
    @usableFromInline let count: Int
    /// Which of slots 0 and 1 holds the acceleration at `time` (the other: at `previousTime`).
    @usableFromInline var endSlot = 1

    /// - Precondition: `timeStep` is finite and > 0 (validated by the callers that take user input).
    public init(system: System, method: Method.Type = Method.self, time: Double = 0, state: State, timeStep: Double) {
        precondition(timeStep > 0 && timeStep.isFinite, "timeStep must be finite and > 0")
        count = system.scene.coordinateCount
        work = Array(repeating: 0, count: 9 * count)
        self.system = system
        self.timeStep = timeStep
        self.time = time
        self.state = state.owned(sizedTo: count)
        previousTime = time
        previousState = self.state.owned(sizedTo: count)
        evaluateEndAcceleration()
    }

    mutating func evaluateEndAcceleration() {
        let n = count, slot = endSlot, layout = system.layout, resting = system.resting
        work.withUnsafeMutableBufferPointer { w in
            state.position.lanes.withUnsafeBufferPointer { x in
                state.velocity.lanes.withUnsafeBufferPointer { v in
                    layout.accelerate(
                        position: x.baseAddress!, velocity: v.baseAddress!, into: w.baseAddress! + slot * n,
                        resting: resting)
                }
            }
        }
        evaluations += 1
    }

    public mutating func advance(toward limit: Double) throws {
        let remaining = limit - time
        // Absorb a sliver left by rounding rather than take a step of 1e-16 s.
        let h = remaining <= timeStep * (1 + 1e-9) ? remaining : timeStep
        swap(&state, &previousState)
        let n = count, startSlot = endSlot, t = time, layout = system.layout, resting = system.resting
        withStepLanes { w, x0, v0, x1, v1 in
            let lanes = FlatStepLanes(
                count: n, x0: x0, v0: v0, a0: w + startSlot * n, x1: x1, v1: v1, aEnd: w + (1 - startSlot) * n,
                scratch: w + 2 * n, time: t, layout: layout, resting: resting)
            Method.step(lanes, by: h)
        }
        endSlot = 1 - endSlot
        evaluations += Method.evaluationsPerStep
        previousTime = time
        time = h == remaining ? limit : time + h
        steps += 1
    }

    /// The workspace and the lanes of the step's start (x0, v0) and end (x1, v1).
    mutating func withStepLanes(
        _ body: (
            UnsafeMutablePointer<Double>, UnsafePointer<Double>, UnsafePointer<Double>,
            UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>
        ) -> Void
    ) {
        work.withUnsafeMutableBufferPointer { w in
            previousState.position.lanes.withUnsafeBufferPointer { x0 in
                previousState.velocity.lanes.withUnsafeBufferPointer { v0 in
                    state.position.lanes.withUnsafeMutableBufferPointer { x1 in
                        state.velocity.lanes.withUnsafeMutableBufferPointer { v1 in
                            body(w.baseAddress!, x0.baseAddress!, v0.baseAddress!, x1.baseAddress!, v1.baseAddress!)
                        }
                    }
                }
            }
        }
    }

    /// Up to 64 steps per call toward `target`, so the simulator's per-call checks (finite state,
    /// energy) are not paid on every step of a small scene.
    public mutating func advance(toward limit: Double, reaching target: Double) throws {
        for _ in 0..<64 {
            try advance(toward: limit)
            if time >= target { return }
        }
    }

    /// The acceleration stored in `slot` as a vector.
    func acceleration(_ slot: Int) -> FlatVector { FlatVector(Array(work[slot * count..<(slot + 1) * count])) }

    public func interpolate(at t: Double) -> State {
        let h = time - previousTime
        if h <= 0 || t >= time { return state }
        if t <= previousTime { return previousState }
        let s = (t - previousTime) / h
        return PhaseState(
            position: Hermite.value(
                previousState.position, previousState.velocity, state.position, state.velocity, s, h),
            velocity: Hermite.value(
                previousState.velocity, acceleration(1 - endSlot), state.velocity, acceleration(endSlot), s, h))
    }

    public func interpolatePosition(at t: Double) -> FlatVector {
        let h = time - previousTime
        if h <= 0 || t >= time { return state.position }
        if t <= previousTime { return previousState.position }
        return Hermite.value(
            previousState.position, previousState.velocity, state.position, state.velocity,
            (t - previousTime) / h, h)
    }

    public func interpolatePosition(at t: Double, lanes: Range<Int>) -> SIMD3<Double> {
        var v = SIMD3<Double>.zero
        let h = time - previousTime
        for (axis, lane) in lanes.enumerated() {
            let x0 = previousState.position.lanes[lane], x1 = state.position.lanes[lane]
            if h <= 0 || t >= time {
                v[axis] = x1
            } else if t <= previousTime {
                v[axis] = x0
            } else {
                v[axis] = Hermite.value(
                    x0, previousState.velocity.lanes[lane], x1, state.velocity.lanes[lane],
                    (t - previousTime) / h, h)
            }
        }
        return v
    }

    public mutating func restart(at time: Double, state: State) {
        self.time = time
        self.state = state.owned(sizedTo: count)
        previousTime = time
        previousState = self.state.owned(sizedTo: count)
        evaluateEndAcceleration()
    }
}
