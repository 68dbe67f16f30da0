/// A register of an Adams step, each a whole state (positions, then velocities): the state
/// reached, the state before the last step, the prediction, the corrector's sum before its newest
/// term, and the derivative at the prediction.
@_spi(Engine) public enum AdamsSlot: Int, Sendable {
    case current, previous, predicted, correctorSum, fPredicted
}

/// Where an Adams step runs, as `StageRegisters` is for the Runge–Kutta methods: whole states as
/// values (`PackedAdamsRegisters`), or a workspace one coordinate at a time (`FlatAdamsRegisters`),
/// the same operations in the same order. The history holds the derivatives at the last `order`
/// grid points, each stored twice (at i and i + order), so the window from the newest runs newest
/// to oldest without wrapping.
@_spi(Engine) public protocol AdamsRegisters {
    associatedtype System: SecondOrderSystem
    /// What a lane's positions and velocities are: whole vectors, or one coordinate's (`Double`).
    associatedtype Component: StateVector
    /// Which lane a formula is computing (nothing for whole states, a coordinate for a workspace).
    associatedtype Lane
    subscript(slot: AdamsSlot, lane: Lane) -> PhaseState<Component> { get set }
    /// History entry `index` at `lane`.
    func history(_ index: Int, _ lane: Lane) -> PhaseState<Component>
    /// The newest history entry, `head`, at `lane` (packed registers keep it in a register: read
    /// back from the history right after it was stored, it waits for the store to reach the cache).
    func newest(_ head: Int, _ lane: Lane) -> PhaseState<Component>
    /// Runs `body` on every lane, in order.
    mutating func forEachLane(_ body: (inout Self, Lane) -> Void)
    /// The derivative at the state in `x` into `k`.
    mutating func derivative(of x: AdamsSlot, into k: AdamsSlot, time: Double, _ system: System)
    /// The derivative at the state in `x` into history entries `index` and `index + order`.
    mutating func push(derivativeOf x: AdamsSlot, at index: Int, order: Int, time: Double, _ system: System)
}

/// The registers as values of `PhaseState` (kept in CPU registers across a run of steps), the
/// history in a buffer.
@_spi(Engine) public struct PackedAdamsRegisters<System: SecondOrderSystem>: AdamsRegisters {
    public typealias Component = System.Vector
    public typealias State = PhaseState<System.Vector>
    @usableFromInline var file: InlineRegisters<State>
    public var newest: State
    @usableFromInline let historyBase: UnsafeMutablePointer<State>

    @inlinable
    init(current: State, previous: State, newest: State, history: UnsafeMutablePointer<State>) {
        file = InlineRegisters(repeating: .zero)
        (file[AdamsSlot.current], file[AdamsSlot.previous]) = (current, previous)
        self.newest = newest
        historyBase = history
    }

    @inlinable
    public subscript(slot: AdamsSlot, lane: Void) -> State {
        @inline(__always) get { file[slot] }
        @inline(__always) set { file[slot] = newValue }
    }

    @inlinable @inline(__always)
    public func history(_ index: Int, _ lane: Void) -> State { historyBase[index] }

    @inlinable @inline(__always)
    public func newest(_ head: Int, _ lane: Void) -> State { newest }

    @inlinable @inline(__always)
    public mutating func forEachLane(_ body: (inout Self, Void) -> Void) { body(&self, ()) }

    @inlinable @inline(__always)
    public mutating func derivative(of x: AdamsSlot, into k: AdamsSlot, time: Double, _ system: System) {
        self[k, ()] = system.derivative(of: self[x, ()], at: time)
    }

    @inlinable @inline(__always)
    public mutating func push(derivativeOf x: AdamsSlot, at index: Int, order: Int, time: Double, _ system: System) {
        let f = system.derivative(of: self[x, ()], at: time)
        historyBase[index] = f
        historyBase[index &+ order] = f
        newest = f
    }
}

/// The registers in one workspace of 2n lanes each (`AdamsSlot` order, then the history), run
/// one coordinate at a time: lanes i and n + i are its position and velocity.
@_spi(Engine) public struct FlatAdamsRegisters<System: LaneSystem>: AdamsRegisters {
    let base: UnsafeMutablePointer<Double>
    /// Coordinates (n).
    let count: Int

    /// Where the history starts, in registers.
    static var historySlot: Int { AdamsSlot.fPredicted.rawValue + 1 }

    /// A workspace for `order`: the registers, then 2·order history entries.
    static func workspace(order: Int, coordinates n: Int) -> [Double] {
        Array(repeating: 0, count: (historySlot + 2 * order) * 2 * n)
    }

    @inline(__always)
    func lanes(_ register: Int) -> UnsafeMutablePointer<Double> { base + register * 2 * count }

    @inline(__always)
    func read(_ register: Int, _ lane: Int) -> PhaseState<Double> {
        let p = lanes(register)
        return PhaseState(position: p[lane], velocity: p[count + lane])
    }

    public subscript(slot: AdamsSlot, lane: Int) -> PhaseState<Double> {
        @inline(__always) get { read(slot.rawValue, lane) }
        @inline(__always) nonmutating set {
            let p = lanes(slot.rawValue)
            p[lane] = newValue.position
            p[count + lane] = newValue.velocity
        }
    }

    @inline(__always)
    public func history(_ index: Int, _ lane: Int) -> PhaseState<Double> { read(Self.historySlot + index, lane) }

    @inline(__always)
    public func newest(_ head: Int, _ lane: Int) -> PhaseState<Double> { history(head, lane) }

    @inline(__always)
    public mutating func forEachLane(_ body: (inout Self, Int) -> Void) {
        for i in 0..<count { body(&self, i) }
    }

    @inline(__always)
    public mutating func derivative(of x: AdamsSlot, into k: AdamsSlot, time: Double, _ system: System) {
        system.derivative(of: lanes(x.rawValue), into: lanes(k.rawValue))
    }

    public mutating func push(derivativeOf x: AdamsSlot, at index: Int, order: Int, time: Double, _ system: System) {
        let first = lanes(Self.historySlot + index), second = lanes(Self.historySlot + index + order)
        system.derivative(of: lanes(x.rawValue), into: first)
        second.update(from: first, count: 2 * count)
    }
}
