/// How `AdaptiveIntegrator` holds what persists between steps and runs its method on
/// `StageRegisters`: as values (`PackedAdaptiveStorage`), or in one workspace allocated at creation
/// (`FlatAdaptiveStorage`). A step's end stays in `y1` and the method's end derivative, its start in
/// `y` and `k1` (the dense output, built only if it is interpolated, needs both), until the next
/// step moves the end to the start.
@_spi(Engine) public protocol AdaptiveStorage {
    associatedtype System: SecondOrderSystem
    associatedtype Registers: StageRegisters where Registers.System == System
    typealias State = PhaseState<System.Vector>

    /// `state` in `y`, its derivative in `k1` (one evaluation), registers up to `last`.
    init(system: System, time: Double, state: State, registers last: StageSlot)
    /// Where the last step ended, or the start before any step.
    var state: State { get }
    /// The derivative at the start, after creation or a restart.
    var derivative: State { get }
    /// Moves the last step's end (`y1`, `end`) to the start (`y`, `k1`), then runs `trial`, which
    /// returns whether it accepted the step it left in `y1` and `end`; the registers up to `last`
    /// are kept with them, for the dense output.
    mutating func step(_ system: System, keeping last: StageSlot, _ trial: (inout Registers, System) -> Bool) -> Bool
    /// Runs `body` on the registers as the last step left them.
    mutating func withRegisters(_ system: System, _ body: (inout Registers, System) -> Void)
    /// Method's dense output at θ of the last step (its start at 0), once it is built.
    func interpolate<Method: AdaptiveMethod>(_ method: Method.Type, at theta: Double) -> State
    /// Lanes `lanes` of the position's dense output at θ (nil: past the step, the state's).
    func interpolatePosition<Method: AdaptiveMethod>(
        _ method: Method.Type, at theta: Double?, lanes: Range<Int>
    ) -> SIMD3<Double>
    /// Restarts from `state` at `time`, its derivative in `k1` (one evaluation).
    mutating func restart(_ system: System, time: Double, state: State)
}

/// The registers as values: a step runs on a local copy (kept in CPU registers), and an accepted
/// one stores back what the next step and its dense output need.
@_spi(Engine) public struct PackedAdaptiveStorage<System: SecondOrderSystem>: AdaptiveStorage {
    public typealias State = PhaseState<System.Vector>
    @usableFromInline var registers: PackedStageRegisters<System>
    /// Whether `y1` holds the state reached (a step was accepted since the last move).
    @usableFromInline var stepTaken = false
    public var state: State { stepTaken ? registers[.y1, ()] : registers[.y, ()] }
    public var derivative: State { registers[.k1, ()] }

    @inlinable
    public init(system: System, time: Double, state: State, registers last: StageSlot) {
        registers = PackedStageRegisters(state: state, derivative: system.derivative(of: state, at: time))
    }

    @inlinable @inline(__always)
    public mutating func step(
        _ system: System, keeping last: StageSlot, _ trial: (inout PackedStageRegisters<System>, System) -> Bool
    ) -> Bool {
        if stepTaken {
            (registers[.y, ()], registers[.k1, ()]) = (registers[.y1, ()], registers[.end, ()])
            stepTaken = false
        }
        var local = registers
        stepTaken = trial(&local, system)
        if stepTaken { registers.keepStep(local, through: last) }
        return stepTaken
    }

    @inlinable
    public mutating func withRegisters(_ system: System, _ body: (inout PackedStageRegisters<System>, System) -> Void) {
        body(&registers, system)
    }

    @inlinable @inline(__always)
    public func interpolate<Method: AdaptiveMethod>(_ method: Method.Type, at theta: Double) -> State {
        Method.dense(registers, (), theta)
    }

    @inlinable
    public func interpolatePosition<Method: AdaptiveMethod>(
        _ method: Method.Type, at theta: Double?, lanes: Range<Int>
    ) -> SIMD3<Double> {
        let x = theta.map { interpolate(method, at: $0) }?.position ?? state.position
        return SIMD3(gathering: lanes) { x[lane: $0] }
    }

    @inlinable
    public mutating func restart(_ system: System, time: Double, state: State) {
        registers[.y, ()] = state
        registers[.k1, ()] = system.derivative(of: state, at: time)
        stepTaken = false
    }
}

/// The registers in one workspace of 2n lanes per `StageSlot` (`FlatStageRegisters<System>`), and the
/// state as a `FlatVector` loaded from `y1` after each step.
@_spi(Engine) public struct FlatAdaptiveStorage<System: LaneSystem>: AdaptiveStorage {
    public typealias State = PhaseState<FlatVector>
    public private(set) var state: State
    var work: [Double]
    /// Coordinates (n).
    let count: Int
    var stepTaken = false
    /// Whether the start and the end trade places (`FlatStageRegisters<System>`).
    var traded = false

    public init(system: System, time: Double, state: State, registers last: StageSlot) {
        count = system.coordinateCount
        work = FlatStageRegisters<System>.workspace(upTo: last, coordinates: count)
        self.state = state.owned(sizedTo: count)
        restart(system, time: time, state: state)
    }

    public var derivative: State { reading { State(lanes: $0.lanes(.k1), count: count) } }

    public mutating func withRegisters(_ system: System, _ body: (inout FlatStageRegisters<System>, System) -> Void) {
        let (n, traded) = (count, traded)
        work.withUnsafeMutableBufferPointer { w in
            var registers = FlatStageRegisters<System>(base: w.baseAddress!, width: 2 * n, traded: traded)
            body(&registers, system)
        }
    }

    public mutating func step(
        _ system: System, keeping last: StageSlot, _ trial: (inout FlatStageRegisters<System>, System) -> Bool
    ) -> Bool {
        if stepTaken {
            traded.toggle()
            stepTaken = false
        }
        var accepted = false
        withRegisters(system) { r, system in accepted = trial(&r, system) }
        guard accepted else { return false }
        let (n, y1) = (count, reading { $0.lanes(.y1) - $0.base })
        work.withUnsafeBufferPointer { state.load(from: $0.baseAddress! + y1, count: n) }
        stepTaken = true
        return true
    }

    /// The registers, read only.
    func reading<T>(_ body: (FlatStageRegisters<System>) -> T) -> T {
        work.withUnsafeBufferPointer {
            body(
                FlatStageRegisters<System>(
                    base: UnsafeMutablePointer(mutating: $0.baseAddress!), width: 2 * count, traded: traded))
        }
    }

    public func interpolate<Method: AdaptiveMethod>(_ method: Method.Type, at theta: Double) -> State {
        reading { r in State(count: count) { Method.dense(r, $0, theta) } }
    }

    public func interpolatePosition<Method: AdaptiveMethod>(
        _ method: Method.Type, at theta: Double?, lanes: Range<Int>
    ) -> SIMD3<Double> {
        reading { r in
            SIMD3(gathering: lanes) { lane in theta.map { Method.dense(r, lane, $0) } ?? state.position.lanes[lane] }
        }
    }

    public mutating func restart(_ system: System, time: Double, state: State) {
        let n = count
        self.state = state.owned(sizedTo: n)
        let start = self.state
        (stepTaken, traded) = (false, false)
        withRegisters(system) { r, system in
            start.write(to: r.lanes(.y), count: n)
            r.derivative(of: .y, into: .k1, time: time, system)
        }
    }
}
