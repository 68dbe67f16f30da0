/// How `AdamsBashforthMoulton` holds the state, the state before the last step, the history of
/// derivatives and the registers of its DOP853 steps: as values with the history in one buffer
/// (`PackedAdamsStorage`), or in workspaces allocated at creation (`FlatAdamsStorage`).
@_spi(Engine) public protocol AdamsStorage {
    associatedtype System: SecondOrderSystem
    associatedtype Registers: AdamsRegisters where Registers.System == System
    associatedtype OneStepRegisters: StageRegisters where OneStepRegisters.System == System
    typealias State = PhaseState<System.Vector>

    /// `state` as the state and the one before (no evaluation), a history for `order`.
    init(system: System, state: State, order: Int)
    var state: State { get }
    var previousState: State { get }
    /// Sets the state and the one before to `state`.
    mutating func restart(_ state: State)
    /// Runs `body` on the registers and `system`; `state` is then `current`.
    mutating func withRegisters<T>(_ system: System, _ body: (inout Registers, System) -> T) -> T
    /// A DOP853 step: the state and history entry `head` into `y` and `k1`, `trial` (which leaves
    /// the state reached in `y1`, its derivative in `end`), then the state into `previous`, `y1`
    /// into `current` and `end` into history entries `newHead` and `newHead + order`.
    mutating func takeOneStep(
        _ system: System, from head: Int, pushingTo newHead: Int, _ trial: (inout OneStepRegisters, System) -> Void)
    /// Runs `body` on the last DOP853 step's registers (to write its dense output).
    mutating func withOneStepRegisters(_ system: System, _ body: (inout OneStepRegisters, System) -> Void)
    /// The state at θ strictly inside the last step of size h: the Adams interpolant through the
    /// history from `head`, or, inside a DOP853 step, its dense output (`withOneStepRegisters`).
    func interpolate(at theta: Double, step h: Double, head: Int, insideOneStep: Bool) -> State
    /// Lanes `lanes` of the position, as `interpolate` (`theta` nil: at the step's end `slot`).
    func interpolatePosition(
        at theta: Double?, end slot: AdamsSlot, step h: Double, head: Int, insideOneStep: Bool, lanes: Range<Int>
    ) -> SIMD3<Double>
}

@_spi(Engine) extension AdamsStorage {
    @usableFromInline typealias Weights = (atTheta: InlineStorage12<Double>, atEnd: InlineStorage12<Double>)

    /// The Adams interpolant's weights at θ for `order`, or nil inside a DOP853 step.
    @inlinable
    static func weights(at theta: Double, order: Int, insideOneStep: Bool) -> Weights? {
        insideOneStep ? nil : AdamsCoefficients.interpolationWeights(order: order, at: theta)
    }

    /// y_n + h Σ_i w_i(θ) f_n+1−i, plus θ times the mismatch at θ = 1 that makes the polynomial end
    /// on the corrected state; on whole states or on one coordinate.
    @inlinable @inline(__always)
    static func interpolated<R: AdamsRegisters>(
        _ r: R, _ lane: R.Lane, theta: Double, step h: Double, weights: Weights, head: Int, order: Int
    ) -> PhaseState<R.Component> {
        var weights = weights
        var atTheta = PhaseState<R.Component>.zero, atEnd = PhaseState<R.Component>.zero
        for i in 0..<order {
            let f = r.history(head + i, lane)
            atTheta = atTheta + weights.atTheta[i] * f
            atEnd = atEnd + weights.atEnd[i] * f
        }
        let y0 = r[.previous, lane]
        let start = y0 + h * atTheta
        let mismatch = r[.current, lane] - (y0 + h * atEnd)
        return start + theta * mismatch
    }
}

/// The state, the one before and the newest derivative as values; the history, then the last
/// DOP853 step's registers (in `StageSlot` order), on the heap, shared by copies until one writes:
/// stored inline, these 50-odd vectors would be destroyed one by one through the generic value
/// witness at the end of every run.
@_spi(Engine) public struct PackedAdamsStorage<System: SecondOrderSystem>: AdamsStorage {
    public typealias State = PhaseState<System.Vector>
    @usableFromInline var current: State, previous: State, newest: State
    @usableFromInline var slots: SlotBuffer<State>
    @usableFromInline let order: Int
    public var state: State { current }
    public var previousState: State { previous }

    @inlinable
    public init(system: System, state: State, order: Int) {
        (current, previous, newest) = (state, state, .zero)
        self.order = order
        slots = SlotBuffer(repeating: .zero, count: 2 * order + StageSlot.registerCount)
    }

    @inlinable
    public mutating func restart(_ state: State) { (current, previous) = (state, state) }

    /// The slots, copied first if another integrator shares them (a copy of this one).
    @inlinable @inline(__always)
    mutating func uniqueSlots() -> UnsafeMutablePointer<State> {
        if !isKnownUniquelyReferenced(&slots) { slots = SlotBuffer(copying: slots) }
        return slots.base
    }

    @inlinable @inline(__always)
    public mutating func withRegisters<T>(
        _ system: System, _ body: (inout PackedAdamsRegisters<System>, System) -> T
    ) -> T {
        var r = PackedAdamsRegisters<System>(
            current: current, previous: previous, newest: newest, history: uniqueSlots())
        defer { (current, previous, newest) = (r[.current, ()], r[.previous, ()], r.newest) }
        return body(&r, system)
    }

    /// The DOP853 registers, after the history's 2·order.
    @inlinable
    func oneStepRegisters() -> PackedStageRegisters<System> {
        var r = PackedStageRegisters<System>(state: .zero, derivative: .zero)
        for i in 0..<StageSlot.registerCount {
            if let slot = StageSlot(rawValue: i) { r[slot, ()] = slots.base[2 * order + i] }
        }
        return r
    }

    @inlinable
    mutating func setOneStepRegisters(_ r: PackedStageRegisters<System>) {
        let p = uniqueSlots() + 2 * order
        for i in 0..<StageSlot.registerCount {
            if let slot = StageSlot(rawValue: i) { p[i] = r[slot, ()] }
        }
    }

    @inlinable
    public mutating func takeOneStep(
        _ system: System, from head: Int, pushingTo newHead: Int,
        _ trial: (inout PackedStageRegisters<System>, System) -> Void
    ) {
        var r = PackedStageRegisters<System>(state: current, derivative: slots.base[head])
        trial(&r, system)
        setOneStepRegisters(r)
        (previous, current, newest) = (current, r[.y1, ()], r[.end, ()])
        let history = uniqueSlots()
        history[newHead] = newest
        history[newHead + order] = newest
    }

    @inlinable
    public mutating func withOneStepRegisters(
        _ system: System, _ body: (inout PackedStageRegisters<System>, System) -> Void
    ) {
        var r = oneStepRegisters()
        body(&r, system)
        setOneStepRegisters(r)
    }

    @inlinable
    public func interpolate(at theta: Double, step h: Double, head: Int, insideOneStep: Bool) -> State {
        guard let weights = Self.weights(at: theta, order: order, insideOneStep: insideOneStep) else {
            return DOP853.dense(oneStepRegisters(), (), theta)
        }
        let r = PackedAdamsRegisters<System>(current: current, previous: previous, newest: newest, history: slots.base)
        return Self.interpolated(r, (), theta: theta, step: h, weights: weights, head: head, order: order)
    }

    @inlinable
    public func interpolatePosition(
        at theta: Double?, end slot: AdamsSlot, step h: Double, head: Int, insideOneStep: Bool, lanes: Range<Int>
    ) -> SIMD3<Double> {
        let x =
            theta.map { interpolate(at: $0, step: h, head: head, insideOneStep: insideOneStep) }?.position
            ?? (slot == .current ? current : previous).position
        return SIMD3(gathering: lanes) { x[lane: $0] }
    }
}

/// The registers and history in one workspace (`FlatAdamsRegisters<System>`), the DOP853 registers in
/// another (`FlatStageRegisters<System>`), and the state as a `FlatVector` loaded from `current`.
@_spi(Engine) public struct FlatAdamsStorage<System: LaneSystem>: AdamsStorage {
    public typealias State = PhaseState<FlatVector>
    public private(set) var state: State
    var work: [Double]
    var oneStep: [Double]
    let count: Int
    let order: Int

    public init(system: System, state: State, order: Int) {
        count = system.coordinateCount
        self.order = order
        work = FlatAdamsRegisters<System>.workspace(order: order, coordinates: count)
        oneStep = FlatStageRegisters<System>.workspace(upTo: .r7, coordinates: count)
        self.state = state.owned(sizedTo: count)
        restart(state)
    }

    public var previousState: State {
        let n = count, previous = AdamsSlot.previous.rawValue * 2 * n
        return work.withUnsafeBufferPointer { State(lanes: $0.baseAddress! + previous, count: n) }
    }

    public mutating func restart(_ state: State) {
        let n = count
        self.state = state.owned(sizedTo: n)
        let start = self.state
        work.withUnsafeMutableBufferPointer { w in
            let r = FlatAdamsRegisters<System>(base: w.baseAddress!, count: n)
            start.write(to: r.lanes(AdamsSlot.current.rawValue), count: n)
            start.write(to: r.lanes(AdamsSlot.previous.rawValue), count: n)
        }
    }

    public mutating func withRegisters<T>(_ system: System, _ body: (inout FlatAdamsRegisters<System>, System) -> T)
        -> T
    {
        let n = count
        let result = work.withUnsafeMutableBufferPointer { w in
            var registers = FlatAdamsRegisters<System>(base: w.baseAddress!, count: n)
            return body(&registers, system)
        }
        work.withUnsafeBufferPointer { state.load(from: $0.baseAddress!, count: n) }
        return result
    }

    public mutating func takeOneStep(
        _ system: System, from head: Int, pushingTo newHead: Int,
        _ trial: (inout FlatStageRegisters<System>, System) -> Void
    ) {
        let n = count, order = self.order
        work.withUnsafeMutableBufferPointer { w in
            oneStep.withUnsafeMutableBufferPointer { d in
                let adams = FlatAdamsRegisters<System>(base: w.baseAddress!, count: n)
                var r = FlatStageRegisters<System>(base: d.baseAddress!, width: 2 * n)
                let current = adams.lanes(AdamsSlot.current.rawValue)
                adams.lanes(AdamsSlot.previous.rawValue).update(from: current, count: 2 * n)
                r.lanes(.y).update(from: current, count: 2 * n)
                r.lanes(.k1).update(from: adams.lanes(FlatAdamsRegisters<System>.historySlot + head), count: 2 * n)
                trial(&r, system)
                current.update(from: r.lanes(.y1), count: 2 * n)
                adams.lanes(FlatAdamsRegisters<System>.historySlot + newHead).update(from: r.lanes(.end), count: 2 * n)
                adams.lanes(FlatAdamsRegisters<System>.historySlot + newHead + order).update(
                    from: r.lanes(.end), count: 2 * n)
            }
        }
        work.withUnsafeBufferPointer { state.load(from: $0.baseAddress!, count: n) }
    }

    public mutating func withOneStepRegisters(
        _ system: System, _ body: (inout FlatStageRegisters<System>, System) -> Void
    ) {
        let n = count
        oneStep.withUnsafeMutableBufferPointer { d in
            var r = FlatStageRegisters<System>(base: d.baseAddress!, width: 2 * n)
            body(&r, system)
        }
    }

    /// Coordinate `i` at θ, by `weights` or the DOP853 dense output.
    func coordinate(_ i: Int, at theta: Double, step h: Double, weights: Weights?, head: Int) -> PhaseState<Double> {
        let n = count
        guard let weights else {
            return oneStep.withUnsafeBufferPointer { d in
                let r = FlatStageRegisters<System>(base: UnsafeMutablePointer(mutating: d.baseAddress!), width: 2 * n)
                return PhaseState(
                    position: DOP853.dense(r, i, theta), velocity: DOP853.dense(r, n + i, theta))
            }
        }
        return work.withUnsafeBufferPointer { w in
            let r = FlatAdamsRegisters<System>(base: UnsafeMutablePointer(mutating: w.baseAddress!), count: n)
            return Self.interpolated(r, i, theta: theta, step: h, weights: weights, head: head, order: order)
        }
    }

    public func interpolate(at theta: Double, step h: Double, head: Int, insideOneStep: Bool) -> State {
        let weights = Self.weights(at: theta, order: order, insideOneStep: insideOneStep)
        var result = State.zero(like: state)
        for i in 0..<count {
            let x = coordinate(i, at: theta, step: h, weights: weights, head: head)
            result.position.lanes[i] = x.position
            result.velocity.lanes[i] = x.velocity
        }
        return result
    }

    public func interpolatePosition(
        at theta: Double?, end slot: AdamsSlot, step h: Double, head: Int, insideOneStep: Bool, lanes: Range<Int>
    ) -> SIMD3<Double> {
        let weights = theta.flatMap { Self.weights(at: $0, order: order, insideOneStep: insideOneStep) }
        return SIMD3(gathering: lanes) { index in
            theta.map { coordinate(index, at: $0, step: h, weights: weights, head: head).position }
                ?? work[slot.rawValue * 2 * count + index]
        }
    }
}
