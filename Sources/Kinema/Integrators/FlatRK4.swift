/// Classic RK4 on a scene in flat storage, stage by stage in place: one workspace allocated at
/// creation, loops over the coordinates, no temporaries per step. The arithmetic is lane for lane
/// that of `RK4` (same operations in the same order), so both agree to the last bit.
///
/// The acceleration at the end of a step is the first stage of the next (computed once, four
/// evaluations per step) and, with the one at its start, gives the cubic Hermite dense output.
public struct FlatRK4: Integrator {
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

    /// Slots of n lanes: the accelerations at the last step's start and end, the stage position and
    /// velocity, the velocities of stages 2 and 3, the accelerations of stages 2, 3 and 4.
    @usableFromInline var work: [Double]
    @usableFromInline let count: Int
    /// Which of slots 0 and 1 holds the acceleration at `time` (the other: at `previousTime`).
    @usableFromInline var endSlot = 1

    /// - Precondition: `timeStep` is finite and > 0 (validated by the callers that take user input).
    public init(system: System, time: Double = 0, state: State, timeStep: Double) {
        precondition(timeStep > 0 && timeStep.isFinite, "timeStep must be finite and > 0")
        count = system.scene.coordinateCount
        work = Array(repeating: 0, count: 9 * count)
        self.system = system
        self.timeStep = timeStep
        self.time = time
        self.state = Self.sized(state, count)
        previousTime = time
        previousState = self.state
        evaluateEndAcceleration()
    }

    /// A state with exactly `count` lanes in each half (a `zero` flat vector has none).
    static func sized(_ state: State, _ count: Int) -> State {
        var state = state
        if state.position.lanes.count < count { state.position.lanes += repeatElement(0, count: count - state.position.lanes.count) }
        if state.velocity.lanes.count < count { state.velocity.lanes += repeatElement(0, count: count - state.velocity.lanes.count) }
        return state
    }

    mutating func evaluateEndAcceleration() {
        let n = count, slot = endSlot, layout = system.layout, resting = system.resting
        work.withUnsafeMutableBufferPointer { w in
            state.position.lanes.withUnsafeBufferPointer { x in
                state.velocity.lanes.withUnsafeBufferPointer { v in
                    layout.accelerate(position: x.baseAddress!, velocity: v.baseAddress!, into: w.baseAddress! + slot * n,
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
        let n = count, layout = system.layout, resting = system.resting
        let half = 0.5 * h, sixth = h / 6
        let startSlot = endSlot, nextSlot = 1 - endSlot
        work.withUnsafeMutableBufferPointer { workBuffer in
            let w = workBuffer.baseAddress!
            let a1 = w + startSlot * n, aEnd = w + nextSlot * n
            let xs = w + 2 * n, vs = w + 3 * n, v2 = w + 4 * n, v3 = w + 5 * n
            let a2 = w + 6 * n, a3 = w + 7 * n, a4 = w + 8 * n
            previousState.position.lanes.withUnsafeBufferPointer { x0Buffer in
                previousState.velocity.lanes.withUnsafeBufferPointer { v0Buffer in
                    state.position.lanes.withUnsafeMutableBufferPointer { x1Buffer in
                        state.velocity.lanes.withUnsafeMutableBufferPointer { v1Buffer in
                            let x0 = x0Buffer.baseAddress!, v0 = v0Buffer.baseAddress!
                            let x1 = x1Buffer.baseAddress!, v1 = v1Buffer.baseAddress!
                            for i in 0..<n {
                                xs[i] = x0[i] + half * v0[i]
                                v2[i] = v0[i] + half * a1[i]
                            }
                            layout.accelerate(position: xs, velocity: v2, into: a2, resting: resting)
                            for i in 0..<n {
                                xs[i] = x0[i] + half * v2[i]
                                v3[i] = v0[i] + half * a2[i]
                            }
                            layout.accelerate(position: xs, velocity: v3, into: a3, resting: resting)
                            for i in 0..<n {
                                xs[i] = x0[i] + h * v3[i]
                                vs[i] = v0[i] + h * a3[i]
                            }
                            layout.accelerate(position: xs, velocity: vs, into: a4, resting: resting)
                            for i in 0..<n {
                                x1[i] = x0[i] + sixth * (v0[i] + 2 * (v2[i] + v3[i]) + vs[i])
                                v1[i] = v0[i] + sixth * (a1[i] + 2 * (a2[i] + a3[i]) + a4[i])
                            }
                            layout.accelerate(position: x1, velocity: v1, into: aEnd, resting: resting)
                        }
                    }
                }
            }
        }
        endSlot = nextSlot
        previousTime = time
        time = h == remaining ? limit : time + h
        steps += 1
        evaluations += 4
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
    func acceleration(_ slot: Int) -> FlatVector { FlatVector(Array(work[slot * count ..< (slot + 1) * count])) }

    public func interpolate(at t: Double) -> State {
        let h = time - previousTime
        if h <= 0 || t >= time { return state }
        if t <= previousTime { return previousState }
        let s = (t - previousTime) / h
        return PhaseState(
            position: Hermite.value(previousState.position, previousState.velocity, state.position, state.velocity, s, h),
            velocity: Hermite.value(previousState.velocity, acceleration(1 - endSlot), state.velocity, acceleration(endSlot), s, h))
    }

    public func interpolatePosition(at t: Double) -> FlatVector {
        let h = time - previousTime
        if h <= 0 || t >= time { return state.position }
        if t <= previousTime { return previousState.position }
        return Hermite.value(previousState.position, previousState.velocity, state.position, state.velocity,
                             (t - previousTime) / h, h)
    }

    public func interpolatePosition(at t: Double, lanes: Range<Int>) -> SIMD3<Double> {
        var v = SIMD3<Double>.zero
        let h = time - previousTime
        for (axis, lane) in lanes.enumerated() {
            let x0 = previousState.position.lanes[lane], x1 = state.position.lanes[lane]
            if h <= 0 || t >= time { v[axis] = x1 } else if t <= previousTime { v[axis] = x0 } else {
                v[axis] = Hermite.value(x0, previousState.velocity.lanes[lane], x1, state.velocity.lanes[lane],
                                        (t - previousTime) / h, h)
            }
        }
        return v
    }

    public mutating func restart(at time: Double, state: State) {
        self.time = time
        self.state = Self.sized(state, count)
        previousTime = time
        previousState = self.state
        evaluateEndAcceleration()
    }
}
