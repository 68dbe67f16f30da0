/// A register of a Dormand–Prince 5(4) step, each a whole state (positions, then velocities): the
/// step's start `y`, the stages' derivatives `k1`…`k7` (`k1` at `y`), the stage being built, the
/// state reached `y1`, and the dense output's coefficients `r1`…`r5`.
@_spi(Engine) public enum StageSlot: Int, Sendable {
    case y, k1, k2, k3, k4, k5, k6, k7, stage, y1, r1, r2, r3, r4, r5
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

/// The registers as values of `PhaseState`, which the optimizer keeps in CPU registers across a
/// step as it keeps a value-form step's temporaries.
@_spi(Engine) public struct PackedStageRegisters<System: SecondOrderSystem>: StageRegisters {
    public typealias Element = PhaseState<System.Vector>
    public var y: Element, k1: Element, r1: Element, r2: Element, r3: Element, r4: Element, r5: Element
    @usableFromInline var k2: Element, k3: Element, k4: Element, k5: Element, k6: Element, k7: Element
    @usableFromInline var stage: Element, y1: Element

    @inlinable
    public init(state: Element, derivative: Element) {
        (y, k1, r1) = (state, derivative, state)
        (r2, r3, r4, r5, k2, k3, k4, k5, k6, k7, stage, y1) = (
            .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero
        )
    }

    @inlinable
    public subscript(slot: StageSlot, lane: Void) -> Element {
        @inline(__always) get {
            switch slot {
            case .y: return y
            case .k1: return k1
            case .k2: return k2
            case .k3: return k3
            case .k4: return k4
            case .k5: return k5
            case .k6: return k6
            case .k7: return k7
            case .stage: return stage
            case .y1: return y1
            case .r1: return r1
            case .r2: return r2
            case .r3: return r3
            case .r4: return r4
            case .r5: return r5
            }
        }
        @inline(__always) set {
            switch slot {
            case .y: y = newValue
            case .k1: k1 = newValue
            case .k2: k2 = newValue
            case .k3: k3 = newValue
            case .k4: k4 = newValue
            case .k5: k5 = newValue
            case .k6: k6 = newValue
            case .k7: k7 = newValue
            case .stage: stage = newValue
            case .y1: y1 = newValue
            case .r1: r1 = newValue
            case .r2: r2 = newValue
            case .r3: r3 = newValue
            case .r4: r4 = newValue
            case .r5: r5 = newValue
            }
        }
    }

    @inlinable @inline(__always)
    public mutating func forEachLane(_ body: (inout Self, Void) -> Void) { body(&self, ()) }

    @inlinable @inline(__always)
    public mutating func derivative(of x: StageSlot, into k: StageSlot, time: Double, _ system: System) {
        self[k, ()] = system.derivative(of: self[x, ()], at: time)
    }
}

/// The registers as one buffer of 2n lanes each, in `StageSlot` order.
@_spi(Engine) public struct FlatStageRegisters: StageRegisters {
    public typealias System = SceneSystem<FlatVector>
    let base: UnsafeMutablePointer<Double>
    /// Lanes per register (2n).
    let width: Int

    @inline(__always)
    func lanes(_ slot: StageSlot) -> UnsafeMutablePointer<Double> { base + slot.rawValue * width }

    /// Registers in a buffer of `slotCount` × 2n lanes.
    static let slotCount = StageSlot.r5.rawValue + 1

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
        system.layout.derivative(of: lanes(x), into: lanes(k), resting: system.resting)
    }
}
