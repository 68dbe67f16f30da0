/// How `DOP853` holds what persists between steps and runs its stages (`DOP853Stages`) on
/// `StageRegisters`: as values (`PackedDOP853Storage`), or in one workspace allocated at creation
/// (`FlatDOP853Storage`). A step's end stays in `y1` and `k13`, its start in `y` and `k1` (its dense
/// output, built only if it is interpolated, needs both), until the next step moves the end to
/// the start.
@_spi(Engine) public protocol DOP853Storage {
    associatedtype System: SecondOrderSystem
    associatedtype Registers: StageRegisters where Registers.System == System
    typealias State = PhaseState<System.Vector>

    /// `state` in `y`, its derivative in `k1` (one evaluation).
    init(system: System, time: Double, state: State)
    /// Where the last step ended, or the start before any step.
    var state: State { get }
    /// The derivative at `state`.
    var derivative: State { get }
    /// Moves the last step's end to the start, then runs `trial`, which returns whether it accepted
    /// the step it left in `y1` and `k13` (and the stages in `k2`…`k12`).
    mutating func step(_ system: System, _ trial: (inout Registers, System) -> Bool) -> Bool
    /// Runs `body` on the registers as the last step left them, for it to write `r1`…`r7`.
    mutating func withRegisters(_ system: System, _ body: (inout Registers, System) -> Void)
    /// The dense output at θ of the last step (its start at 0), once `r1`…`r7` are written.
    func interpolate(at theta: Double) -> State
    /// Lanes `lanes` of the position's dense output at θ (nil: past the step, the state's).
    func interpolatePosition(at theta: Double?, lanes: Range<Int>) -> SIMD3<Double>
    /// Restarts from `state` at `time`, its derivative in `k1` (one evaluation).
    mutating func restart(_ system: System, time: Double, state: State)
}

@_spi(Engine) extension DOP853Storage {
    /// y + x(F0 + (1−x)(F1 + x(F2 + (1−x)(F3 + x(F4 + (1−x)(F5 + x·F6)))))), by Horner in x and
    /// 1 − x alternately (dop853's contd8), on whole states or on one lane; at x = 0 the start
    /// itself (the sum would turn a −0 lane into +0).
    @inlinable @inline(__always)
    static func dense<E: StateVector>(_ y: E, _ f: (E, E, E, E, E, E, E), _ x: Double) -> E {
        if x == 0 { return y }
        let tail = (1 - x) * (f.5 + x * f.6)
        return y + x * (f.0 + (1 - x) * (f.1 + x * (f.2 + (1 - x) * (f.3 + x * (f.4 + tail)))))
    }
}

/// The registers as values.
@_spi(Engine) public struct PackedDOP853Storage<System: SecondOrderSystem>: DOP853Storage {
    public typealias State = PhaseState<System.Vector>
    @usableFromInline var registers: PackedStageRegisters<System>
    /// Whether `y1` and `k13` hold the state reached (a step was accepted since the last move).
    @usableFromInline var stepTaken = false
    public var state: State { stepTaken ? registers.y1 : registers.y }
    public var derivative: State { stepTaken ? registers.k13 : registers.k1 }

    @inlinable
    public init(system: System, time: Double, state: State) {
        registers = PackedStageRegisters(state: state, derivative: system.derivative(of: state, at: time))
    }

    @inlinable @inline(__always)
    public mutating func step(_ system: System, _ trial: (inout PackedStageRegisters<System>, System) -> Bool) -> Bool {
        if stepTaken {
            (registers.y, registers.k1) = (registers.y1, registers.k13)
            stepTaken = false
        }
        stepTaken = trial(&registers, system)
        return stepTaken
    }

    @inlinable
    public mutating func withRegisters(_ system: System, _ body: (inout PackedStageRegisters<System>, System) -> Void) {
        body(&registers, system)
    }

    @inlinable
    public func interpolate(at theta: Double) -> State {
        let r = registers
        return Self.dense(r.y, (r.r1, r.r2, r.r3, r.r4, r.r5, r.r6, r.r7), theta)
    }

    @inlinable
    public func interpolatePosition(at theta: Double?, lanes: Range<Int>) -> SIMD3<Double> {
        let x = theta.map { interpolate(at: $0) }?.position ?? state.position
        return SIMD3(gathering: lanes) { x[lane: $0] }
    }

    @inlinable
    public mutating func restart(_ system: System, time: Double, state: State) {
        registers.y = state
        registers.k1 = system.derivative(of: state, at: time)
        stepTaken = false
    }
}

/// The registers in one workspace of 2n lanes per `StageSlot` (`FlatStageRegisters`), and the
/// state as a `FlatVector` loaded from `y1` after each step.
@_spi(Engine) public struct FlatDOP853Storage: DOP853Storage {
    public typealias System = SceneSystem<FlatVector>
    public typealias State = PhaseState<FlatVector>
    public private(set) var state: State
    var work: [Double]
    /// Coordinates (n).
    let count: Int
    var stepTaken = false

    public init(system: System, time: Double, state: State) {
        count = system.scene.coordinateCount
        work = FlatStageRegisters.workspace(upTo: .r7, coordinates: count)
        self.state = state.owned(sizedTo: count)
        restart(system, time: time, state: state)
    }

    public var derivative: State {
        let k = (stepTaken ? StageSlot.k13 : .k1).rawValue * 2 * count
        return work.withUnsafeBufferPointer { State(lanes: $0.baseAddress! + k, count: count) }
    }

    public mutating func withRegisters(_ system: System, _ body: (inout FlatStageRegisters, System) -> Void) {
        let n = count
        work.withUnsafeMutableBufferPointer { w in
            var registers = FlatStageRegisters(base: w.baseAddress!, width: 2 * n)
            body(&registers, system)
        }
    }

    public mutating func step(_ system: System, _ trial: (inout FlatStageRegisters, System) -> Bool) -> Bool {
        if stepTaken {
            withRegisters(system) { r, _ in
                r.forEachLane { r, i in (r[.y, i], r[.k1, i]) = (r[.y1, i], r[.k13, i]) }
            }
            stepTaken = false
        }
        var accepted = false
        withRegisters(system) { r, system in accepted = trial(&r, system) }
        guard accepted else { return false }
        let n = count, y1 = StageSlot.y1.rawValue * 2 * n
        work.withUnsafeBufferPointer { state.load(from: $0.baseAddress! + y1, count: n) }
        stepTaken = true
        return true
    }

    /// Lane `lane` (of 2n) of the dense output at θ.
    @inline(__always)
    func dense(_ lane: Int, _ theta: Double) -> Double {
        let m = 2 * count, f = StageSlot.r1.rawValue * m + lane, r6 = StageSlot.r6.rawValue * m + lane
        let coefficients = (
            work[f], work[f + m], work[f + 2 * m], work[f + 3 * m], work[f + 4 * m], work[r6], work[r6 + m]
        )
        return Self.dense(work[lane], coefficients, theta)
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
        stepTaken = false
        withRegisters(system) { r, system in
            start.write(to: r.lanes(.y), count: n)
            r.derivative(of: .y, into: .k1, time: time, system)
        }
    }
}
