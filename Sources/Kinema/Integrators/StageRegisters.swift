/// A register of an adaptive Runge–Kutta step, each a whole state (positions, then velocities):
/// the step's start `y`, the stages' derivatives `k1`… (`k1` at `y`), the stage being built, the
/// state reached `y1` and the derivative there `end` (the last stage's: Dormand–Prince 5(4)'s
/// seventh, DOP853's thirteenth), and the dense output's coefficients `r1`…. `y1` and `end` are
/// the next step's `y` and `k1`.
@_spi(Engine) public enum StageSlot: Int, Sendable {
    case y, k1, y1, end, k2, k3, k4, k5, k6, k7, stage, k8, k9, k10, k11, k12, k14, k15, k16
    case r1, r2, r3, r4, r5, r6, r7

    /// How many registers there are.
    @inlinable static var registerCount: Int { r7.rawValue + 1 }
}

/// Where an adaptive method's step runs, as `StepRegisters` is for the fixed-step methods: whole
/// states as values (`PackedStageRegisters`), or buffers of 2n lanes run lane by lane
/// (`FlatStageRegisters`), the same operations in the same order.
@_spi(Engine) public protocol StageRegisters {
    associatedtype System: SecondOrderSystem
    /// What a formula computes on: the whole state, or one lane.
    associatedtype Element: StateVector
    /// Which lane a formula is computing (nothing for whole states).
    associatedtype Lane
    subscript(slot: StageSlot, lane: Lane) -> Element { get set }
    /// Runs `body` on every lane, in order.
    mutating func forEachLane(_ body: (inout Self, Lane) -> Void)
    /// The derivative at the state in `x` into `k`.
    mutating func derivative(of x: StageSlot, into k: StageSlot, time: Double, _ system: System)
}

/// The registers as values of `PhaseState` (`InlineRegisters`).
@_spi(Engine) public struct PackedStageRegisters<System: SecondOrderSystem>: StageRegisters {
    public typealias Element = PhaseState<System.Vector>
    @usableFromInline var file: InlineRegisters<Element>

    @inlinable
    public init(state: Element, derivative: Element) {
        file = InlineRegisters(repeating: .zero)
        (file[StageSlot.y], file[StageSlot.k1]) = (state, derivative)
    }

    @inlinable
    public subscript(slot: StageSlot, lane: Void) -> Element {
        @inline(__always) get { file[slot] }
        @inline(__always) set { file[slot] = newValue }
    }

    /// What an accepted step leaves for the next and for its dense output, from `other`: `y`
    /// through `last` (`StageSlot` order, which puts `y1` and `end` before the stages).
    @inlinable @inline(__always)
    mutating func keepStep(_ other: Self, through last: StageSlot) {
        for i in 0...last.rawValue {
            if let slot = StageSlot(rawValue: i) { self[slot, ()] = other[slot, ()] }
        }
    }

    @inlinable @inline(__always)
    public mutating func forEachLane(_ body: (inout Self, Void) -> Void) { body(&self, ()) }

    @inlinable @inline(__always)
    public mutating func derivative(of x: StageSlot, into k: StageSlot, time: Double, _ system: System) {
        self[k, ()] = system.derivative(of: self[x, ()], at: time)
    }
}

/// The registers as one buffer of 2n lanes each, in `StageSlot` order, except that after every
/// other step the start and the end trade places (`y` with `y1`, `k1` with `end`), so the end
/// becomes the start without a copy.
@_spi(Engine) public struct FlatStageRegisters<System: LaneSystem>: StageRegisters {
    let base: UnsafeMutablePointer<Double>
    /// Lanes per register (2n).
    let width: Int
    let y: UnsafeMutablePointer<Double>, k1: UnsafeMutablePointer<Double>
    let y1: UnsafeMutablePointer<Double>, end: UnsafeMutablePointer<Double>

    init(base: UnsafeMutablePointer<Double>, width: Int, traded: Bool = false) {
        (self.base, self.width) = (base, width)
        // y and k1 are adjacent, as are y1 and end.
        let (start, finish) = (base, base + StageSlot.y1.rawValue * width)
        (y, k1, y1, end) =
            traded ? (finish, finish + width, start, start + width) : (start, start + width, finish, finish + width)
    }

    /// Switched on a slot known where it is called, so it folds to a field.
    @inline(__always)
    func lanes(_ slot: StageSlot) -> UnsafeMutablePointer<Double> {
        switch slot {
        case .y: y
        case .k1: k1
        case .y1: y1
        case .end: end
        default: base + slot.rawValue * width
        }
    }

    /// A buffer for the registers up to `last`: that many plus one times 2n lanes.
    static func workspace(upTo last: StageSlot, coordinates n: Int) -> [Double] {
        Array(repeating: 0, count: (last.rawValue + 1) * 2 * n)
    }

    public subscript(slot: StageSlot, lane: Int) -> Double {
        @inline(__always) get { lanes(slot)[lane] }
        @inline(__always) nonmutating set { lanes(slot)[lane] = newValue }
    }

    @inline(__always)
    public mutating func forEachLane(_ body: (inout Self, Int) -> Void) {
        for i in 0..<width { body(&self, i) }
    }

    @inline(__always)
    public mutating func derivative(of x: StageSlot, into k: StageSlot, time: Double, _ system: System) {
        system.derivative(of: lanes(x), into: lanes(k))
    }
}
