/// A register of a fixed-step method's step, each a vector of the system's coordinates: the start
/// (`x0`, `v0` and `a0`, its acceleration), the end (`x1`, `v1`), and seven of scratch.
@_spi(Engine) public enum StepSlot: Int, Sendable {
    case x0, v0, a0, x1, v1, s0, s1, s2, s3, s4, s5, s6
}

/// Where a fixed-step method's step runs: the method is written once over it, the way odeint's
/// steppers are written over an algebra. Fixed-width vectors hold each register as a value and run
/// a formula once on whole vectors (`PackedStepRegisters`); flat storage holds each in a buffer
/// and runs it lane by lane (`FlatStepRegisters`). Both see the same operations in the same order.
@_spi(Engine) public protocol StepRegisters {
    associatedtype System: SecondOrderSystem
    /// What a formula computes on: the whole vector, or one lane.
    associatedtype Element: StateVector
    /// Which lane a formula is computing (nothing for whole vectors).
    associatedtype Lane
    subscript(slot: StepSlot, lane: Lane) -> Element { get set }
    /// Runs `body` on every lane.
    mutating func forEachLane(_ body: (inout Self, Lane) -> Void)
    /// The acceleration at (`x`, `v`) into `a`.
    mutating func accelerate(_ x: StepSlot, _ v: StepSlot, into a: StepSlot, time: Double, _ system: System)
}

/// The registers as values of the system's vector type: after inlining, the optimizer keeps them in
/// CPU registers as it keeps a value-form step's temporaries.
@_spi(Engine) public struct PackedStepRegisters<System: SecondOrderSystem>: StepRegisters {
    public typealias Element = System.Vector
    public var x0: Element, v0: Element, a0: Element, x1: Element, v1: Element
    @usableFromInline var s0: Element, s1: Element, s2: Element, s3: Element, s4: Element, s5: Element, s6: Element

    @inlinable @inline(__always)
    public init(x0: Element, v0: Element, a0: Element) {
        (self.x0, self.v0, self.a0) = (x0, v0, a0)
        (x1, v1, s0, s1, s2, s3, s4, s5, s6) = (x0, v0, x0, x0, x0, x0, x0, x0, x0)
    }

    @inlinable
    public subscript(slot: StepSlot, lane: Void) -> Element {
        @inline(__always) get {
            switch slot {
            case .x0: return x0
            case .v0: return v0
            case .a0: return a0
            case .x1: return x1
            case .v1: return v1
            case .s0: return s0
            case .s1: return s1
            case .s2: return s2
            case .s3: return s3
            case .s4: return s4
            case .s5: return s5
            case .s6: return s6
            }
        }
        @inline(__always) set {
            switch slot {
            case .x0: x0 = newValue
            case .v0: v0 = newValue
            case .a0: a0 = newValue
            case .x1: x1 = newValue
            case .v1: v1 = newValue
            case .s0: s0 = newValue
            case .s1: s1 = newValue
            case .s2: s2 = newValue
            case .s3: s3 = newValue
            case .s4: s4 = newValue
            case .s5: s5 = newValue
            case .s6: s6 = newValue
            }
        }
    }

    @inlinable @inline(__always)
    public mutating func forEachLane(_ body: (inout Self, Void) -> Void) { body(&self, ()) }

    @inlinable @inline(__always)
    public mutating func accelerate(_ x: StepSlot, _ v: StepSlot, into a: StepSlot, time: Double, _ system: System) {
        self[a, ()] = system.acceleration(position: self[x, ()], velocity: self[v, ()], time: time)
    }
}
