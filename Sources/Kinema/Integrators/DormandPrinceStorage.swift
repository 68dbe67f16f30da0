/// How `DormandPrince54` holds what persists between steps (the state, its derivative, the dense
/// output) and runs a step on `StageRegisters`: as values (`PackedDormandPrinceStorage`), or in
/// one workspace allocated at creation (`FlatDormandPrinceStorage`).
@_spi(Engine) public protocol DormandPrinceStorage {
    associatedtype System: SecondOrderSystem
    associatedtype Registers: StageRegisters where Registers.System == System
    typealias State = PhaseState<System.Vector>

    /// Evaluates the derivative at `state` (one evaluation).
    init(system: System, time: Double, state: State)
    var state: State { get }
    /// The derivative at `state`.
    var derivative: State { get }
    /// Runs `body` on the registers: `y`, `k1` and `r1`…`r5` as they were left, the others scratch.
    /// `body` returns whether it moved the state to a new `y`, which `state` then is.
    mutating func withRegisters(_ system: System, _ body: (inout Registers, System) -> Bool) -> Bool
    /// The dense output at θ of the last step (`r1` at 0).
    func interpolate(at theta: Double) -> State
    /// Lanes `lanes` of the position's dense output at θ (nil: past the step, the state's).
    func interpolatePosition(at theta: Double?, lanes: Range<Int>) -> SIMD3<Double>
    /// Restarts from `state` at `time`: `y` and `r1` are it, `k1` its derivative (one evaluation).
    mutating func restart(_ system: System, time: Double, state: State)
}

@_spi(Engine) extension DormandPrinceStorage {
    /// y(θ) = r1 + θ(r2 + (1−θ)(r3 + θ(r4 + (1−θ)r5))), on whole states or on one lane; at θ = 0
    /// the start itself (the sum would turn a −0 lane into +0).
    @inlinable @inline(__always)
    static func dense<E: StateVector>(_ r1: E, _ r2: E, _ r3: E, _ r4: E, _ r5: E, _ theta: Double) -> E {
        if theta == 0 { return r1 }
        let theta1 = 1 - theta
        return r1 + theta * (r2 + theta1 * (r3 + theta * (r4 + theta1 * r5)))
    }
}

/// The registers that persist as values; the stages are made for each step.
@_spi(Engine) public struct PackedDormandPrinceStorage<System: SecondOrderSystem>: DormandPrinceStorage {
    public typealias State = PhaseState<System.Vector>
    @usableFromInline var registers: PackedStageRegisters<System>
    public var state: State { registers.y }
    public var derivative: State { registers.k1 }

    @inlinable
    public init(system: System, time: Double, state: State) {
        registers = PackedStageRegisters(state: state, derivative: system.derivative(of: state, at: time))
    }

    @inlinable @inline(__always)
    public mutating func withRegisters(
        _ system: System, _ body: (inout PackedStageRegisters<System>, System) -> Bool
    ) -> Bool {
        // A local copy, so that the stages stay in CPU registers; only what persists is stored back.
        var local = PackedStageRegisters<System>(state: registers.y, derivative: registers.k1)
        (local.r1, local.r2, local.r3, local.r4, local.r5) = (
            registers.r1, registers.r2, registers.r3, registers.r4, registers.r5
        )
        defer {
            (registers.y, registers.k1) = (local.y, local.k1)
            (registers.r1, registers.r2, registers.r3, registers.r4, registers.r5) = (
                local.r1, local.r2, local.r3, local.r4, local.r5
            )
        }
        return body(&local, system)
    }

    @inlinable
    public func interpolate(at theta: Double) -> State {
        Self.dense(registers.r1, registers.r2, registers.r3, registers.r4, registers.r5, theta)
    }

    @inlinable
    public func interpolatePosition(at theta: Double?, lanes: Range<Int>) -> SIMD3<Double> {
        let x = theta.map { interpolate(at: $0) }?.position ?? state.position
        return SIMD3(gathering: lanes) { x[lane: $0] }
    }

    @inlinable
    public mutating func restart(_ system: System, time: Double, state: State) {
        registers.y = state
        registers.r1 = state
        registers.k1 = system.derivative(of: state, at: time)
    }
}

/// The registers in one workspace of 2n lanes per `StageSlot` (`FlatStageRegisters`), and the state as a
/// `FlatVector` loaded from `y` after each step.
@_spi(Engine) public struct FlatDormandPrinceStorage: DormandPrinceStorage {
    public typealias System = SceneSystem<FlatVector>
    public typealias State = PhaseState<FlatVector>
    public private(set) var state: State
    var work: [Double]
    /// Coordinates (n).
    let count: Int

    public init(system: System, time: Double, state: State) {
        count = system.scene.coordinateCount
        work = FlatStageRegisters.workspace(upTo: .r5, coordinates: count)
        self.state = state.owned(sizedTo: count)
        restart(system, time: time, state: state)
    }

    public var derivative: State {
        work.withUnsafeBufferPointer { State(lanes: $0.baseAddress! + 2 * count, count: count) }
    }

    public mutating func withRegisters(_ system: System, _ body: (inout FlatStageRegisters, System) -> Bool) -> Bool {
        let n = count
        let moved = work.withUnsafeMutableBufferPointer { w in
            var registers = FlatStageRegisters(base: w.baseAddress!, width: 2 * n)
            return body(&registers, system)
        }
        if moved { work.withUnsafeBufferPointer { state.load(from: $0.baseAddress!, count: n) } }
        return moved
    }

    /// Lane `lane` (of 2n) of the dense output at θ.
    @inline(__always)
    func dense(_ lane: Int, _ theta: Double) -> Double {
        let m = 2 * count, base = StageSlot.r1.rawValue * m + lane
        return Self.dense(work[base], work[base + m], work[base + 2 * m], work[base + 3 * m], work[base + 4 * m], theta)
    }

    public func interpolate(at theta: Double) -> State {
        State(count: count) { dense($0, theta) }
    }

    public func interpolatePosition(at theta: Double?, lanes: Range<Int>) -> SIMD3<Double> {
        SIMD3(gathering: lanes) { lane in theta.map { dense(lane, $0) } ?? state.position.lanes[lane] }
    }

    public mutating func restart(_ system: System, time: Double, state: State) {
        let n = count
        self.state = state.owned(sizedTo: n)
        let start = self.state
        _ = withRegisters(system) { r, system in
            start.write(to: r.lanes(.y), count: n)
            r.forEachLane { r, i in r[.r1, i] = r[.y, i] }
            r.derivative(of: .y, into: .k1, time: time, system)
            return false
        }
    }
}
