/// Adams–Bashforth–Moulton (PECE, fixed step, order 1…12) on a scene in flat storage, in place:
/// the lanes of `AdamsBashforthMoulton`'s arithmetic (same sums in the same order, the same DOP853
/// steps to start and to end off the grid, through `DOP853Stages` on `FlatStageRegisters`), over
/// workspaces allocated at creation, so both agree to the last bit and a step allocates nothing.
///
/// Workspace slots of 2n lanes (positions, then velocities): the state, the state before the last
/// step, the predicted state, the corrector's sum, the predicted derivative, then the history of
/// derivatives, each stored twice (at i and i + order) so the window from `head` runs newest to
/// oldest without wrapping. The DOP853 steps have their own workspace of `StageSlot`s.
@_spi(Engine) public struct FlatAdamsBashforthMoulton: Integrator {
    public typealias System = SceneSystem<FlatVector>
    public typealias State = PhaseState<FlatVector>

    public var system: System
    public let timeStep: Double
    public let order: Int
    public private(set) var time: Double
    public private(set) var state: State
    public private(set) var previousTime: Double
    public private(set) var steps = 0
    public private(set) var evaluations = 0

    var predictor: InlineStorage12<Double>
    var corrector: InlineStorage12<Double>
    var positionPredictor: InlineStorage12<Double>
    var positionCorrector: InlineStorage12<Double>
    var head = 0
    var known = 0
    var origin: Double
    var gridIndex = 0
    var lastWasOneStep = false
    var denseIsCurrent = true
    var work: [Double]
    var oneStep: [Double]
    let count: Int

    static let current = 0, previous = 1, predicted = 2, correctorSum = 3, fPredicted = 4, history = 5

    /// - Precondition: `timeStep` finite and > 0, `order` in 1…12 (`IntegrationMethod.validate`
    ///   checks both for user input).
    public init(system: System, time: Double = 0, state: State, timeStep: Double, order: Int) {
        precondition(timeStep > 0 && timeStep.isFinite, "timeStep must be finite and > 0")
        precondition(IntegrationMethod.adamsOrders.contains(order), "order must be \(IntegrationMethod.adamsOrderRule)")
        count = system.scene.coordinateCount
        self.system = system
        self.timeStep = timeStep
        self.order = order
        (predictor, corrector, positionPredictor, positionCorrector) = AdamsCoefficients.scaled(
            order: order, step: timeStep)
        work = Array(repeating: 0, count: (Self.history + 2 * order) * 2 * count)
        oneStep = FlatStageRegisters.workspace(upTo: .r7, coordinates: count)
        self.time = time
        self.state = state.sized(count)
        previousTime = time
        origin = time
        restart(at: time, state: state)
    }

    public mutating func restart(at time: Double, state: State) {
        self.time = time
        self.state = state.owned(sizedTo: count)
        previousTime = time
        origin = time
        gridIndex = 0
        known = 0
        lastWasOneStep = false
        denseIsCurrent = true
        let n = count, start = self.state
        work.withUnsafeMutableBufferPointer { start.write(to: $0.baseAddress!, count: n) }
        copy(Self.current, to: Self.previous)
        pushDerivative { w, n in w + Self.current * 2 * n }
    }

    func slot(_ index: Int) -> Int { index * 2 * count }

    mutating func copy(_ from: Int, to: Int) {
        let m = 2 * count, a = from * m, b = to * m
        work.withUnsafeMutableBufferPointer { w in
            for l in 0..<m { w[b + l] = w[a + l] }
        }
    }

    /// Moves `head` one back and stores a derivative there (and `order` slots on): the one at the
    /// lanes `source` points to, evaluated first when `evaluate`.
    mutating func pushDerivative(
        evaluate: Bool = true, _ source: (UnsafeMutablePointer<Double>, Int) -> UnsafeMutablePointer<Double>
    ) {
        head = head == 0 ? order - 1 : head - 1
        known = min(known + 1, order)
        let n = count, m = 2 * count, first = (Self.history + head) * m, second = first + order * m
        let layout = system.layout, resting = system.resting
        work.withUnsafeMutableBufferPointer { w in
            let base = w.baseAddress!
            layout.derivative(of: source(base, n), into: base + first, resting: resting)
            for l in 0..<m { base[second + l] = base[first + l] }
        }
        evaluations += 1
    }

    /// Stores the derivative DOP853 left in its k13 register as the newest history entry (no evaluation).
    mutating func pushOneStepDerivative() {
        head = head == 0 ? order - 1 : head - 1
        known = min(known + 1, order)
        let m = 2 * count, first = (Self.history + head) * m, second = first + order * m
        let k12 = StageSlot.k13.rawValue * m
        oneStep.withUnsafeBufferPointer { d in
            work.withUnsafeMutableBufferPointer { w in
                for l in 0..<m {
                    w[first + l] = d[k12 + l]
                    w[second + l] = d[k12 + l]
                }
            }
        }
    }

    public mutating func advance(toward limit: Double) throws {
        step(toward: limit)
    }

    /// Up to 32 steps toward `target` in one call, as `AdamsBashforthMoulton` does.
    public mutating func advance(toward limit: Double, reaching target: Double) throws {
        for _ in 0..<32 {
            step(toward: limit)
            if time >= target || time >= limit { return }
        }
    }

    mutating func step(toward limit: Double) {
        let h = timeStep, remaining = limit - time
        let reachesLimit = remaining < 1.5 * h && abs(remaining - h) <= 16 * max(abs(limit), h).ulp
        previousTime = time
        copy(Self.current, to: Self.previous)
        steps &+= 1
        if remaining < h && !reachesLimit {
            takeOneStep(size: remaining, to: limit)
            origin = limit
            gridIndex = 0
            known = 0
            pushOneStepDerivative()
            return
        }
        gridIndex &+= 1
        let end = reachesLimit ? limit : origin + Double(gridIndex) * h
        if known < order {
            takeOneStep(size: h, to: end)
            pushOneStepDerivative()
            return
        }
        // P, E, C, E, each lane summed oldest to newest as the packed integrator does: position
        // lane i from x_i + h v_i and the accelerations (lane n + i of each derivative) with the
        // position's weights, velocity lane n + i from v_i and the same accelerations.
        let n = count, m = 2 * count, order = self.order, head = self.head, layout = system.layout,
            resting = system.resting
        var positionWeights = (predictor: positionPredictor, corrector: positionCorrector)
        var velocityWeights = (predictor: predictor, corrector: corrector)
        work.withUnsafeMutableBufferPointer { buffer in
            let w = buffer.baseAddress!
            let y = w + Self.current * m, predicted = w + Self.predicted * m, sum = w + Self.correctorSum * m
            let fPredicted = w + Self.fPredicted * m, f = w + (Self.history + head) * m
            /// Lane `l`'s prediction and the corrector's sum before its newest term, from `start`
            /// and the accelerations in lane `a` of the history.
            func predict(
                _ l: Int, from start: Double, acceleration a: Int,
                _ weights: inout (predictor: InlineStorage12<Double>, corrector: InlineStorage12<Double>)
            ) {
                var older = 0.0, correctorSum = 0.0
                var j = order &- 1
                while j > 0 {
                    older = older + weights.predictor[j] * f[j * m + a]
                    correctorSum = correctorSum + weights.corrector[j] * f[(j - 1) * m + a]
                    j &-= 1
                }
                predicted[l] = (start + older) + weights.predictor[0] * f[a]
                sum[l] = start + correctorSum
            }
            for i in 0..<n { predict(i, from: y[i] + h * y[n + i], acceleration: n + i, &positionWeights) }
            for i in 0..<n { predict(n + i, from: y[n + i], acceleration: n + i, &velocityWeights) }
            layout.derivative(of: predicted, into: fPredicted, resting: resting)
            let c0 = (position: positionWeights.corrector[0], velocity: velocityWeights.corrector[0])
            for i in 0..<n {
                y[i] = sum[i] + c0.position * fPredicted[n + i]
                y[n + i] = sum[n + i] + c0.velocity * fPredicted[n + i]
            }
        }
        evaluations &+= 1
        time = end
        lastWasOneStep = false
        storeState()
        pushDerivative { w, n in w + Self.current * 2 * n }
    }

    /// A DOP853 step from the current state and the newest derivative, without error control.
    mutating func takeOneStep(size: Double, to end: Double) {
        let m = 2 * count, system = self.system, newest = (Self.history + head) * m
        work.withUnsafeMutableBufferPointer { w in
            oneStep.withUnsafeMutableBufferPointer { d in
                var r = FlatStageRegisters(base: d.baseAddress!, width: m)
                r.forEachLane { r, l in (r[.y, l], r[.k1, l]) = (w[l], w[newest + l]) }
                DOP853Stages.trial(&r, system, time: 0, step: size, end: 0)
                r.forEachLane { r, l in w[l] = r[.y1, l] }
            }
        }
        evaluations += 12
        lastWasOneStep = true
        denseIsCurrent = false
        time = end
        storeState()
    }

    /// The current slot into `state`.
    mutating func storeState() {
        let n = count
        work.withUnsafeBufferPointer { state.load(from: $0.baseAddress!, count: n) }
    }

    public mutating func prepareInterpolation() {
        guard lastWasOneStep && !denseIsCurrent else { return }
        let m = 2 * count, h = time - previousTime, system = self.system
        oneStep.withUnsafeMutableBufferPointer {
            var r = FlatStageRegisters(base: $0.baseAddress!, width: m)
            DOP853Stages.denseOutput(&r, system, time: 0, step: h)
        }
        denseIsCurrent = true
        evaluations += 3
    }

    /// The Adams interpolant's weights at `t` (none needed at a step's `end` or inside a DOP853 step).
    func interpolationWeights(at t: Double, end: Int?) -> (
        atTheta: InlineStorage12<Double>, atEnd: InlineStorage12<Double>
    ) {
        guard end == nil && !lastWasOneStep else {
            return (InlineStorage12(repeating: 0), InlineStorage12(repeating: 0))
        }
        return AdamsCoefficients.interpolationWeights(order: order, at: (t - previousTime) / (time - previousTime))
    }

    /// Lane `lane` (of 2n) at `t` strictly inside the last step, prepared as `prepareInterpolation` leaves it.
    func lane(_ lane: Int, at t: Double, _ weights: (atTheta: InlineStorage12<Double>, atEnd: InlineStorage12<Double>))
        -> Double
    {
        var weights = weights
        let m = 2 * count, h = time - previousTime, theta = (t - previousTime) / h
        if lastWasOneStep {
            let f = StageSlot.r1.rawValue * m + lane, r6 = StageSlot.r6.rawValue * m + lane
            let coefficients = (
                oneStep[f], oneStep[f + m], oneStep[f + 2 * m], oneStep[f + 3 * m], oneStep[f + 4 * m], oneStep[r6],
                oneStep[r6 + m]
            )
            return FlatDOP853Storage.dense(work[Self.previous * m + lane], coefficients, theta)
        }
        var atTheta = 0.0, atEnd = 0.0
        for i in 0..<order {
            let f = work[(Self.history + head + i) * m + lane]
            atTheta = atTheta + weights.atTheta[i] * f
            atEnd = atEnd + weights.atEnd[i] * f
        }
        let y0 = work[Self.previous * m + lane], y1 = work[lane]
        let start = y0 + h * atTheta
        let mismatch = y1 - (y0 + h * atEnd)
        return start + theta * mismatch
    }

    /// Whether `t` is the step's end or start (a few ulps off counts, as in the packed integrator).
    func endpoint(_ t: Double) -> Int? {
        let h = time - previousTime
        if h <= 0 || t >= time - 4 * time.ulp { return Self.current }
        if t <= previousTime + 4 * previousTime.ulp { return Self.previous }
        return nil
    }

    public func interpolate(at t: Double) -> State {
        guard !lastWasOneStep || denseIsCurrent || endpoint(t) != nil else {
            var prepared = self  // the driver prepares first; this path copies the workspaces
            prepared.prepareInterpolation()
            return prepared.interpolate(at: t)
        }
        var result = State.zero(like: state)
        let n = count, m = 2 * count, end = endpoint(t)
        let weights = interpolationWeights(at: t, end: end)
        for i in 0..<n {
            if let end {
                result.position.lanes[i] = work[end * m + i]
                result.velocity.lanes[i] = work[end * m + n + i]
            } else {
                result.position.lanes[i] = lane(i, at: t, weights)
                result.velocity.lanes[i] = lane(n + i, at: t, weights)
            }
        }
        return result
    }

    public func interpolatePosition(at t: Double, lanes: Range<Int>) -> SIMD3<Double> {
        guard !lastWasOneStep || denseIsCurrent || endpoint(t) != nil else {
            let x = interpolate(at: t).position
            var v = SIMD3<Double>.zero
            for (axis, lane) in lanes.enumerated() { v[axis] = x.lanes[lane] }
            return v
        }
        let m = 2 * count, end = endpoint(t)
        let weights = interpolationWeights(at: t, end: end)
        var v = SIMD3<Double>.zero
        for (axis, index) in lanes.enumerated() {
            v[axis] = end.map { work[$0 * m + index] } ?? lane(index, at: t, weights)
        }
        return v
    }
}
