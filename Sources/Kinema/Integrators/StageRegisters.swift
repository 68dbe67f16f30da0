/// A register of an adaptive Runge–Kutta step, each a whole state (positions, then velocities):
/// the step's start `y`, the stages' derivatives `k1`… (`k1` at `y`), the stage being built, the
/// state reached `y1`, and the dense output's coefficients `r1`…. An accepted step persists from
/// `y` through `y1` and the derivative at its end (`k7` for Dormand–Prince 5(4), `k13` for DOP853).
@_spi(Engine) public enum StageSlot: Int, Sendable {
    case y, k1, k2, k3, k4, k5, k6, k7, stage, y1, k8, k9, k10, k11, k12, k13, k14, k15, k16
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

/// The registers as values of `PhaseState`, which the optimizer keeps in CPU registers across a
/// step as it keeps a value-form step's temporaries.
@_spi(Engine) public struct PackedStageRegisters<System: SecondOrderSystem>: StageRegisters {
    public typealias Element = PhaseState<System.Vector>
    public var y: Element, k1: Element, r1: Element, r2: Element, r3: Element, r4: Element, r5: Element
    @usableFromInline var k2: Element, k3: Element, k4: Element, k5: Element, k6: Element, k7: Element
    @usableFromInline var stage: Element, y1: Element
    @usableFromInline var k8: Element, k9: Element, k10: Element, k11: Element, k12: Element, k13: Element
    @usableFromInline var k14: Element, k15: Element, k16: Element, r6: Element, r7: Element

    @inlinable
    public init(state: Element, derivative: Element) {
        (y, k1) = (state, derivative)
        (r1, r2, r3, r4, r5, k2, k3, k4, k5, k6, k7, stage, y1) = (
            .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero
        )
        (k8, k9, k10, k11, k12, k13, k14, k15, k16, r6, r7) = (
            .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero
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
            case .k8: return k8
            case .k9: return k9
            case .k10: return k10
            case .k11: return k11
            case .k12: return k12
            case .k13: return k13
            case .k14: return k14
            case .k15: return k15
            case .k16: return k16
            case .r6: return r6
            case .r7: return r7
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
            case .k8: k8 = newValue
            case .k9: k9 = newValue
            case .k10: k10 = newValue
            case .k11: k11 = newValue
            case .k12: k12 = newValue
            case .k13: k13 = newValue
            case .k14: k14 = newValue
            case .k15: k15 = newValue
            case .k16: k16 = newValue
            case .r6: r6 = newValue
            case .r7: r7 = newValue
            }
        }
    }

    /// What an accepted step leaves for the next and for its dense output, from `other`: `y`
    /// through `y1`, and on to `end`, the derivative at the step's end (`StageSlot` order).
    @inlinable @inline(__always)
    mutating func keepStep(_ other: Self, end: StageSlot) {
        for i in 0...max(end.rawValue, StageSlot.y1.rawValue) {
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

/// The registers as one buffer of 2n lanes each, in `StageSlot` order.
@_spi(Engine) public struct FlatStageRegisters: StageRegisters {
    public typealias System = SceneSystem<FlatVector>
    let base: UnsafeMutablePointer<Double>
    /// Lanes per register (2n).
    let width: Int

    @inline(__always)
    func lanes(_ slot: StageSlot) -> UnsafeMutablePointer<Double> { base + slot.rawValue * width }

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
        system.layout.derivative(of: lanes(x), into: lanes(k), resting: system.resting)
    }
}
