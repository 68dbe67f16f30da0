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
///
/// Written once over `AdamsRegisters`; `Storage` holds the states as values with the history on
/// the heap (`PackedAdamsStorage`, the default) or in workspaces (`FlatAdamsStorage`).
@_spi(Engine) public struct AdamsBashforthMoulton<Storage: AdamsStorage>: Integrator {
    public typealias System = Storage.System
    public typealias State = PhaseState<System.Vector>

    public var system: System
    public let timeStep: Double
    public let order: Int
    public var time: Double { _time }
    @usableFromInline var _time: Double
    public var state: State { storage.state }
    public var previousTime: Double { _previousTime }
    @usableFromInline var _previousTime: Double
    public var steps: Int { _steps }
    @usableFromInline var _steps = 0
    public var evaluations: Int { _evaluations }
    @usableFromInline var _evaluations = 0

    /// The Bashforth weights (on a_n, a_n−1, …) and the Moulton weights (on a_n+1, a_n, …) in pairs,
    /// h² times the position's and h times the velocity's: one load for both lanes of a term.
    @usableFromInline var predictor: InlineStorage12<PhaseState<Double>>
    @usableFromInline var corrector: InlineStorage12<PhaseState<Double>>
    @usableFromInline var storage: Storage
    /// Where the newest derivative is in the history.
    @usableFromInline var head = 0
    /// How many grid points the history holds (the Adams steps start when it reaches `order`).
    @usableFromInline var known = 0
    /// Grid times are `origin + n·h`, computed, not accumulated, so they do not drift.
    @usableFromInline var origin: Double
    @usableFromInline var gridIndex = 0
    /// The last step was a DOP853 step: its registers are in the storage, for its dense output.
    @usableFromInline var lastWasOneStep = false
    /// The storage holds the dense output of the last DOP853 step.
    @usableFromInline var denseIsCurrent = true

    /// - Precondition: `timeStep` finite and > 0, `order` in 1…12 (`IntegrationMethod.validate`
    ///   checks both for user input).
    @inlinable
    public init(system: System, storage: Storage.Type, time: Double = 0, state: State, timeStep: Double, order: Int) {
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
        self.storage = Storage(system: system, state: state, order: order)
        _time = time
        _previousTime = time
        origin = time
        restart(at: time, state: state)
    }

    /// With the states as values of the system's vector type.
    @inlinable
    public init<S: SecondOrderSystem>(system: S, time: Double = 0, state: State, timeStep: Double, order: Int)
    where Storage == PackedAdamsStorage<S> {
        self.init(system: system, storage: Storage.self, time: time, state: state, timeStep: timeStep, order: order)
    }

    @inlinable
    public mutating func restart(at time: Double, state: State) {
        _time = time
        _previousTime = time
        origin = time
        gridIndex = 0
        known = 0
        lastWasOneStep = false
        denseIsCurrent = true
        storage.restart(state)
        let order = self.order, newHead = nextHead
        storage.withRegisters(system) { r, system in
            r.push(derivativeOf: .current, at: newHead, order: order, time: time, system)
        }
        pushed(at: newHead)
        _evaluations += 1
    }

    /// Where the next derivative goes in the history: one before the newest, wrapping.
    @inlinable var nextHead: Int { head == 0 ? order &- 1 : head &- 1 }

    /// After a derivative was stored at `newHead`.
    @inlinable @inline(__always)
    mutating func pushed(at newHead: Int) {
        head = newHead
        known = min(known + 1, order)
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
    /// the registers, times, history head and system stay in locals. Returns the steps taken.
    @inlinable @inline(__always)
    mutating func gridSteps(before limit: Double, reaching target: Double, atMost count: Int) -> Int {
        guard known == order else { return 0 }
        let h = timeStep
        // The last grid index a step may end on: one whose start is ≥ 1.5 h before the limit
        // (1.6 h: a margin for the rounding of this quotient). Infinite for a live scene.
        let room = (limit - origin) / h - 0.6 - Double(gridIndex)
        guard room >= 0 else { return 0 }
        let n = room >= Double(count) ? count : Int(room)  // truncation: the floor of a positive room
        let order = self.order, origin = self.origin
        // Copied once a call, passed to each step in place.
        var predictor = self.predictor, corrector = self.corrector
        let start = (index: gridIndex, head: head, time: _time, previousTime: _previousTime)
        let end = storage.withRegisters(system) { registers, system in
            // A local copy, so that the registers stay in CPU registers across the steps.
            var r = registers
            defer { registers = r }
            var (index, head, t, previousTime) = start
            var taken = 0
            while taken < count {
                index &+= 1
                var end = origin + Double(index) * h
                if taken == n {
                    // Past the plain grid steps: only the one that ends on the limit, as `step(toward:)` decides it.
                    let remaining = limit - t
                    guard Self.endsOnLimit(remaining: remaining, step: h, limit: limit) else { index &-= 1; break }
                    end = limit
                }
                let newHead = head == 0 ? order &- 1 : head &- 1
                Self.pece(
                    &r, system, head: head, newHead: newHead, order: order, &predictor, &corrector, step: h, end: end)
                head = newHead
                previousTime = t
                t = end
                taken &+= 1
                if end >= target || taken > n { break }  // the second: the limit is reached
            }
            return (taken: taken, index: index, head: head, time: t, previousTime: previousTime)
        }
        if end.taken > 0 {
            _time = end.time
            _previousTime = end.previousTime
            gridIndex = end.index
            head = end.head
            _steps &+= end.taken
            _evaluations &+= 2 &* end.taken
            lastWasOneStep = false
        }
        return end.taken
    }

    /// P, E, C, E: the prediction from the history, its derivative, the correction, its derivative
    /// stored as the newest. The sums run oldest to newest and the newest derivative comes last,
    /// so the chain from one evaluation to the next is one multiply-add, not the whole sum.
    @inlinable @inline(__always)
    static func pece<R: AdamsRegisters>(
        _ r: inout R, _ system: System, head: Int, newHead: Int, order: Int,
        _ predictor: inout InlineStorage12<PhaseState<Double>>, _ corrector: inout InlineStorage12<PhaseState<Double>>,
        step h: Double, end: Double
    ) where R.System == System {
        r.forEachLane { r, i in
            let newest = r.newest(head, i)
            var older = PhaseState<R.Component>.zero, correctorSum = PhaseState<R.Component>.zero
            // Unchecked index arithmetic (head + j < 2·order ≤ 24, j < order ≤ 12 by construction).
            var j = order &- 1
            while j > 1 {
                older = older + times(predictor[j], r.history(head &+ j, i))
                correctorSum = correctorSum + times(corrector[j], r.history(head &+ j &- 1, i))
                j &-= 1
            }
            if order > 1 {
                older = older + times(predictor[1], r.history(head &+ 1, i))
                correctorSum = correctorSum + times(corrector[1], newest)
            }
            let start = drift(r[.current, i], h)
            r[.predicted, i] = (start + older) + times(predictor[0], newest)
            r[.correctorSum, i] = start + correctorSum
        }
        r.derivative(of: .predicted, into: .fPredicted, time: end, system)
        let c0 = corrector[0]
        r.forEachLane { r, i in
            r[.previous, i] = r[.current, i]
            r[.current, i] = r[.correctorSum, i] + times(c0, r[.fPredicted, i])
        }
        r.push(derivativeOf: .current, at: newHead, order: order, time: end, system)
    }

    /// One step of any kind (`gridSteps` takes the plain grid steps of a run without it).
    @inlinable @inline(__always)
    mutating func step(toward limit: Double) {
        let h = timeStep, remaining = limit - _time
        let reachesLimit = Self.endsOnLimit(remaining: remaining, step: h, limit: limit)
        _previousTime = _time
        _steps &+= 1
        if remaining < h && !reachesLimit {
            takeOneStep(size: remaining, to: limit)
            origin = limit  // off the grid: the history starts again here
            gridIndex = 0
            known = 1
            return
        }
        gridIndex &+= 1
        let end = reachesLimit ? limit : origin + Double(gridIndex) * h
        if known < order {
            takeOneStep(size: h, to: end)
            return
        }
        let order = self.order, head = self.head, newHead = nextHead
        var predictor = self.predictor, corrector = self.corrector
        storage.withRegisters(system) { r, system in
            Self.pece(&r, system, head: head, newHead: newHead, order: order, &predictor, &corrector, step: h, end: end)
        }
        pushed(at: newHead)
        _evaluations &+= 2
        _time = end
        lastWasOneStep = false
    }

    /// Whether the next grid point is `limit`, `remaining` ahead: they differ by rounding only
    /// (decided only near the limit: the ulp is a few instructions in every step otherwise).
    @inlinable @inline(__always)
    static func endsOnLimit(remaining: Double, step h: Double, limit: Double) -> Bool {
        remaining < 1.5 * h && abs(remaining - h) <= 16 * max(abs(limit), h).ulp
    }

    /// (x + h v, v): where both the predictor and the corrector start.
    @inlinable @inline(__always)
    static func drift<V: StateVector>(_ y: PhaseState<V>, _ h: Double) -> PhaseState<V> {
        PhaseState(position: y.position + h * y.velocity, velocity: y.velocity)
    }

    /// The weights (w_x, w_v) on a derivative's acceleration: (w_x a, w_v a).
    @inlinable @inline(__always)
    static func times<V: StateVector>(_ weights: PhaseState<Double>, _ f: PhaseState<V>) -> PhaseState<V> {
        PhaseState(position: weights.position * f.velocity, velocity: weights.velocity * f.velocity)
    }

    /// A DOP853 step (no error control: the fixed step is the user's choice) from the newest
    /// derivative in the history, its end's derivative stored as the newest.
    @inlinable
    mutating func takeOneStep(size: Double, to end: Double) {
        let t = _time, newHead = nextHead
        storage.takeOneStep(system, from: head, pushingTo: newHead) { r, system in
            DOP853Stages.trial(&r, system, time: t, step: size, end: end)
        }
        pushed(at: newHead)
        _evaluations += 12
        lastWasOneStep = true
        denseIsCurrent = false
        _time = end
    }

    @inlinable
    public mutating func prepareInterpolation() {
        guard lastWasOneStep && !denseIsCurrent else { return }
        let t = _previousTime, h = _time - _previousTime
        storage.withOneStepRegisters(system) { r, system in DOP853Stages.denseOutput(&r, system, time: t, step: h) }
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
        if h <= 0 || t >= _time - 4 * _time.ulp { return storage.state }
        if t <= _previousTime + 4 * _previousTime.ulp { return storage.previousState }
        if lastWasOneStep && !denseIsCurrent {
            var prepared = self.prepared
            return prepared.interpolateInPlace(at: t)
        }
        return storage.interpolate(
            at: (t - _previousTime) / h, step: h, head: head, insideOneStep: lastWasOneStep)
    }

    @inlinable
    public func interpolatePosition(at t: Double, lanes: Range<Int>) -> SIMD3<Double> {
        let h = _time - _previousTime
        if h <= 0 || t >= _time - 4 * _time.ulp || t <= _previousTime + 4 * _previousTime.ulp {
            let end: AdamsSlot = h <= 0 || t >= _time - 4 * _time.ulp ? .current : .previous
            return storage.interpolatePosition(
                at: nil, end: end, step: h, head: head, insideOneStep: lastWasOneStep, lanes: lanes)
        }
        if lastWasOneStep && !denseIsCurrent { return prepared.interpolatePosition(at: t, lanes: lanes) }
        return storage.interpolatePosition(
            at: (t - _previousTime) / h, end: .current, step: h, head: head, insideOneStep: lastWasOneStep,
            lanes: lanes)
    }
}
