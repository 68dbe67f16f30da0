/// Adams–Bashforth–Moulton with a fixed step, in PECE form: a Bashforth predictor and a Moulton
/// corrector of the same order k (1…12, the global order), two acceleration evaluations per step
/// whatever the order, where a Runge–Kutta method of order 8 needs twelve. The right method when
/// evaluations are cheap to reuse and the step is set by the output (60 Hz samples) anyway.
///
/// - Second-order (Nyström) form: the velocity is the acceleration's polynomial integrated once,
///   the position the same polynomial integrated twice, x_n+1 = x_n + h v_n + h² Σ w_j a_j, not
///   the velocity's integrated once. On a spring with damping ratio 0.1 that is 2.5–3× less error
///   at the same step and 4–10× the stable step at orders 8–12.
///
/// - The history of the last k derivatives is built by k − 1 DOP853 steps of the same size (order
///   8; 12 evaluations each) at the start and after every restart (an impact). A step shorter than
///   the fixed one (only the last, when the duration is not on the grid) is a DOP853 step too.
/// - Inside an Adams step, the interpolant is the polynomial through the history, integrated
///   (order k + 1), plus a linear term of the size of the local error that makes it meet both
///   ends of the step; inside a DOP853 step, DOP853's 7th-order dense output.
/// - Stability is limited and shrinks with the order: on a spring with damping ratio 0.1, ωh up
///   to 1.09 at order 8, 0.86 at order 10, 0.68 at order 12; critically damped, 0.19, 0.11 and
///   0.062 (`largestStableStep`).
@_spi(Engine) public struct AdamsBashforthMoulton<System: SecondOrderSystem>: Integrator {
    public typealias State = PhaseState<System.Vector>

    public var system: System
    public let timeStep: Double
    public let order: Int
    public var time: Double { _time }
    @usableFromInline var _time: Double
    public var state: State { _state }
    @usableFromInline var _state: State
    public var previousTime: Double { _previousTime }
    @usableFromInline var _previousTime: Double
    @usableFromInline var previousState: State
    public var steps: Int { _steps }
    @usableFromInline var _steps = 0
    public var evaluations: Int { _evaluations }
    @usableFromInline var _evaluations = 0

    /// The Bashforth weights (on a_n, a_n−1, …) and the Moulton weights (on a_n+1, a_n, …) in pairs,
    /// h² times the position's and h times the velocity's: one load for both lanes of a term.
    @usableFromInline var predictor: InlineStorage12<PhaseState<Double>>
    @usableFromInline var corrector: InlineStorage12<PhaseState<Double>>
    /// f at the last `order` grid points, newest at `head`, each stored twice (at i and i + order) so
    /// the window `head ..< head + order` runs newest to oldest without wrapping; then the last
    /// DOP853 step's registers (from `oneStepSlot`, in `StageSlot` order: its start, stages, end
    /// and dense output). On the heap, shared by copies until one writes: stored inline, these
    /// 50-odd vectors would be destroyed one by one through the generic value witness at the end
    /// of every run.
    @usableFromInline var slots: SlotBuffer<State>
    @usableFromInline var head = 0
    /// How many grid points the history holds (the Adams steps start when it reaches `order`).
    @usableFromInline var known = 0
    /// Grid times are `origin + n·h`, computed, not accumulated, so they do not drift.
    @usableFromInline var origin: Double
    @usableFromInline var gridIndex = 0
    /// The last step was a DOP853 step: its registers are in the slots, for its dense output.
    @usableFromInline var lastWasOneStep = false
    /// The slots hold the dense output of the last DOP853 step.
    @usableFromInline var denseIsCurrent = true

    /// - Precondition: `timeStep` finite and > 0, `order` in 1…12 (`IntegrationMethod.validate`
    ///   checks both for user input).
    @inlinable
    public init(system: System, time: Double = 0, state: State, timeStep: Double, order: Int) {
        precondition(timeStep > 0 && timeStep.isFinite, "timeStep must be finite and > 0")
        precondition(IntegrationMethod.adamsOrders.contains(order), "order must be \(IntegrationMethod.adamsOrderRule)")
        self.system = system
        self.timeStep = timeStep
        self.order = order
        predictor = InlineStorage12(repeating: .zero)
        corrector = InlineStorage12(repeating: .zero)
        var (b, c, bx, cx) = AdamsCoefficients.scaled(order: order, step: timeStep)
        for j in 0..<order {
            predictor[j] = PhaseState(position: bx[j], velocity: b[j])
            corrector[j] = PhaseState(position: cx[j], velocity: c[j])
        }
        slots = SlotBuffer(repeating: .zero, count: 2 * order + StageSlot.registerCount)
        _time = time
        _state = state
        _previousTime = time
        previousState = state
        origin = time
        restart(at: time, state: state)
    }

    @inlinable
    public mutating func restart(at time: Double, state: State) {
        _time = time
        _state = state
        _previousTime = time
        previousState = state
        origin = time
        gridIndex = 0
        known = 0
        lastWasOneStep = false
        denseIsCurrent = true
        push(system.derivative(of: state, at: time))
        _evaluations += 1
    }

    @inlinable @inline(__always)
    mutating func push(_ f: State) {
        let history = uniqueSlots()
        head = head == 0 ? order - 1 : head - 1
        history[head] = f
        history[head + order] = f
        known = min(known + 1, order)
    }

    /// The slots, copied first if another integrator shares them (a copy of this one).
    @inlinable @inline(__always)
    mutating func uniqueSlots() -> UnsafeMutablePointer<State> {
        if !isKnownUniquelyReferenced(&slots) { slots = SlotBuffer(copying: slots) }
        return slots.base
    }

    /// The last DOP853 step's registers, after the history's 2·order.
    @inlinable var oneStepSlot: Int { 2 * order }

    /// The last DOP853 step's registers, as values.
    @inlinable
    func oneStepRegisters() -> PackedStageRegisters<System> {
        var r = PackedStageRegisters<System>(state: .zero, derivative: .zero)
        for i in 0..<StageSlot.registerCount {
            if let slot = StageSlot(rawValue: i) { r[slot, ()] = slots.base[oneStepSlot + i] }
        }
        return r
    }

    /// Stores `r` as the last DOP853 step's registers.
    @inlinable
    mutating func setOneStepRegisters(_ r: PackedStageRegisters<System>) {
        let p = uniqueSlots() + oneStepSlot
        for i in 0..<StageSlot.registerCount {
            if let slot = StageSlot(rawValue: i) { p[i] = r[slot, ()] }
        }
    }

    /// One step of the fixed size, or a shorter one ending exactly on `limit` when that is nearer.
    @inlinable
    public mutating func advance(toward limit: Double) throws {
        step(toward: limit)
    }

    /// Up to 32 steps toward `target` in one call (an Adams step costs about what the simulator's
    /// checks after it did; 32 keeps a blow-up from running far before they see it).
    @inlinable @inline(__always)
    public mutating func advance(toward limit: Double, reaching target: Double) throws {
        let taken = gridSteps(before: limit, reaching: target, atMost: 32)
        if taken > 0 && _time >= target { return }
        steps(toward: limit, reaching: target, atMost: 32 - taken)
    }

    /// The steps `gridSteps` does not take (the history's start, the steps near the limit), out of
    /// line so that the grid steps' loop keeps its registers.
    @inlinable @inline(never)
    mutating func steps(toward limit: Double, reaching target: Double, atMost count: Int) {
        for _ in 0..<count {
            step(toward: limit)
            if _time >= target || _time >= limit { return }
        }
    }

    /// Adams steps on the grid, up to `count` of them, stopping at the first that reaches `target`:
    /// those that start a step and a half or more before `limit`, then the step that ends on
    /// `limit` when it is a grid point up to rounding. `step(toward:)` would take each as a plain
    /// grid step (the last ending exactly on the limit), so none of its other checks is needed, and
    /// the state, times, history head and system stay in locals (read back from `self` after
    /// each history store, through a pointer into the same struct, the system costs as much as
    /// the checks). Returns the steps taken.
    @inlinable @inline(__always)
    mutating func gridSteps(before limit: Double, reaching target: Double, atMost count: Int) -> Int {
        guard known == order else { return 0 }
        let h = timeStep
        // The last grid index a step may end on: one whose start is ≥ 1.5 h before the limit
        // (1.6 h: a margin for the rounding of this quotient). Infinite for a live scene.
        let room = (limit - origin) / h - 0.6 - Double(gridIndex)
        guard room >= 0 else { return 0 }
        let n = room >= Double(count) ? count : Int(room)  // truncation: the floor of a positive room
        let history = uniqueSlots()  // before the system is read: a write to self would make it a copy
        let system = self.system, order = self.order
        let p0 = predictor[0], c0 = corrector[0]
        var y = _state, previous = previousState, t = _time, previousTime = _previousTime
        var index = gridIndex, head = self.head, taken = 0
        // The newest derivative from a register, not from the history: stored there as two
        // halves, it cannot be forwarded to the next step's whole-vector load, which then waits
        // for the store to reach the cache, twice a step on the chain of dependent operations.
        var newest = history[head]
        while taken < count {
            index &+= 1
            var end = origin + Double(index) * h
            if taken == n {
                // Past the plain grid steps: only the one that ends on the limit, as `step(toward:)` decides it.
                let remaining = limit - t
                guard Self.endsOnLimit(remaining: remaining, step: h, limit: limit) else { index &-= 1; break }
                end = limit
            }
            let (older, correctorSum) = historySums(history, head: head, newest: newest)
            let start = Self.drift(y, h)
            let fPredicted = system.derivative(of: (start + older) + Self.times(p0, newest), at: end)
            previous = y
            y = (start + correctorSum) + Self.times(c0, fPredicted)
            let f1 = system.derivative(of: y, at: end)
            newest = f1
            head = head == 0 ? order &- 1 : head &- 1
            history[head] = f1
            history[head &+ order] = f1
            previousTime = t
            t = end
            taken &+= 1
            if end >= target || taken > n { break }  // the second: the limit is reached
        }
        if taken > 0 {
            _state = y
            previousState = previous
            _time = t
            _previousTime = previousTime
            gridIndex = index
            self.head = head
            _steps &+= taken
            _evaluations &+= 2 &* taken
            lastWasOneStep = false
        }
        return taken
    }

    /// One step of any kind (`gridSteps` takes the plain grid steps of a run without it).
    @inlinable @inline(__always)
    mutating func step(toward limit: Double) {
        let h = timeStep, remaining = limit - _time
        let reachesLimit = Self.endsOnLimit(remaining: remaining, step: h, limit: limit)
        _previousTime = _time
        previousState = _state
        _steps &+= 1
        if remaining < h && !reachesLimit {
            let next = takeOneStep(size: remaining, to: limit)
            origin = limit  // off the grid: the history starts again here
            gridIndex = 0
            known = 0
            push(next)
            return
        }
        gridIndex &+= 1
        let end = reachesLimit ? limit : origin + Double(gridIndex) * h
        if known < order {
            push(takeOneStep(size: h, to: end))
            return
        }
        // P, E, C, E. The sums run oldest to newest and the newest derivative comes last, so the
        // chain from one evaluation to the next is one multiply-add, not the whole sum.
        let start = Self.drift(_state, h)
        let history = slots.base, newest = history[head]
        let (older, correctorSum) = historySums(history, head: head, newest: newest)
        let p0 = predictor[0], c0 = corrector[0]
        let fPredicted = system.derivative(of: (start + older) + Self.times(p0, newest), at: end)
        let y1 = (start + correctorSum) + Self.times(c0, fPredicted)
        let f1 = system.derivative(of: y1, at: end)
        _evaluations &+= 2
        _state = y1
        _time = end
        lastWasOneStep = false
        push(f1)
    }

    /// Whether the next grid point is `limit`, `remaining` ahead: they differ by rounding only
    /// (decided only near the limit: the ulp is a few instructions in every step otherwise).
    @inlinable @inline(__always)
    static func endsOnLimit(remaining: Double, step h: Double, limit: Double) -> Bool {
        remaining < 1.5 * h && abs(remaining - h) <= 16 * max(abs(limit), h).ulp
    }

    /// The sums over the accelerations (the velocity halves of the stored derivatives) past the
    /// newest: Σ_{j≥1} (h²·β_j, h·b_j) a_n−j and Σ_{j≥1} (h²·β*_j, h·b*_j) a_n+1−j, oldest first,
    /// with `newest` (f_n, the history's head) as the corrector's last term. Unchecked reads
    /// (head + j < 2·order ≤ 24, j < order ≤ 12 by construction): the checks were a third of the loop.
    @inlinable @inline(__always)
    mutating func historySums(_ history: UnsafeMutablePointer<State>, head: Int, newest: State) -> (
        predictor: State, corrector: State
    ) {
        var older = State.zero, correctorSum = State.zero
        var j = order &- 1
        while j > 1 {
            older = older + Self.times(predictor[j], history[head &+ j])
            correctorSum = correctorSum + Self.times(corrector[j], history[head &+ j &- 1])
            j &-= 1
        }
        if order > 1 {
            older = older + Self.times(predictor[1], history[head &+ 1])
            correctorSum = correctorSum + Self.times(corrector[1], newest)
        }
        return (older, correctorSum)
    }

    /// (x + h v, v): where both the predictor and the corrector start.
    @inlinable @inline(__always)
    static func drift(_ y: State, _ h: Double) -> State {
        State(position: y.position + h * y.velocity, velocity: y.velocity)
    }

    /// The weights (w_x, w_v) on a derivative's acceleration: (w_x a, w_v a).
    @inlinable @inline(__always)
    static func times(_ weights: PhaseState<Double>, _ f: State) -> State {
        State(position: weights.position * f.velocity, velocity: weights.velocity * f.velocity)
    }

    /// A DOP853 step (no error control: the fixed step is the user's choice), from the newest
    /// derivative in the history. Returns the derivative at its end.
    @inlinable
    mutating func takeOneStep(size: Double, to end: Double) -> State {
        var r = PackedStageRegisters<System>(state: _state, derivative: slots.base[head])
        DOP853Stages.trial(&r, system, time: _time, step: size, end: end)
        setOneStepRegisters(r)
        _evaluations += 12
        lastWasOneStep = true
        denseIsCurrent = false
        _state = r.y1
        _time = end
        return r.k13
    }

    @inlinable
    public mutating func prepareInterpolation() {
        guard lastWasOneStep && !denseIsCurrent else { return }
        var r = oneStepRegisters()
        DOP853Stages.denseOutput(&r, system, time: _previousTime, step: _time - _previousTime)
        setOneStepRegisters(r)
        denseIsCurrent = true
        _evaluations += 3
    }

    @inlinable
    public func interpolate(at t: Double) -> State {
        var copy = self
        return copy.interpolateInPlace(at: t)
    }

    @inlinable
    public mutating func interpolateInPlace(at t: Double) -> State {
        let h = _time - _previousTime
        // A sample a few ulps off a grid point (i/60 against n·(1/240)) is the grid point.
        if h <= 0 || t >= _time - 4 * _time.ulp { return _state }
        if t <= _previousTime + 4 * _previousTime.ulp { return previousState }
        let theta = (t - _previousTime) / h
        if lastWasOneStep {
            var r = oneStepRegisters()
            if !denseIsCurrent {  // computed for this call only, as `interpolate`'s contract says
                DOP853Stages.denseOutput(&r, system, time: _previousTime, step: h)
            }
            return PackedDOP853Storage<System>.dense(r.y, (r.r1, r.r2, r.r3, r.r4, r.r5, r.r6, r.r7), theta)
        }
        // y_n + h Σ_i w_i(θ) f_n+1−i, and the same at θ = 1 to make the polynomial end on the
        // corrected state.
        var weights = AdamsCoefficients.interpolationWeights(order: order, at: theta)
        var atTheta = State.zero, atEnd = State.zero
        for i in 0..<order {
            let f = slots.base[head + i]
            atTheta = atTheta + weights.atTheta[i] * f
            atEnd = atEnd + weights.atEnd[i] * f
        }
        let start = previousState + h * atTheta
        let mismatch = _state - (previousState + h * atEnd)
        return start + theta * mismatch
    }
}
