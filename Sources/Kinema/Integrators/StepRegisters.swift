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

/// The registers as values of the system's vector type (`InlineRegisters`).
@_spi(Engine) public struct PackedStepRegisters<System: SecondOrderSystem>: StepRegisters {
    public typealias Element = System.Vector
    @usableFromInline var file: InlineRegisters<Element>

    @inlinable @inline(__always)
    public init(x0: Element, v0: Element, a0: Element) {
        file = InlineRegisters(repeating: x0)
        (file[StepSlot.v0], file[StepSlot.a0]) = (v0, a0)
    }

    @inlinable
    public subscript(slot: StepSlot, lane: Void) -> Element {
        @inline(__always) get { file[slot] }
        @inline(__always) set { file[slot] = newValue }
    }

    @inlinable @inline(__always)
    public mutating func forEachLane(_ body: (inout Self, Void) -> Void) { body(&self, ()) }

    @inlinable @inline(__always)
    public mutating func accelerate(_ x: StepSlot, _ v: StepSlot, into a: StepSlot, time: Double, _ system: System) {
        self[a, ()] = system.acceleration(position: self[x, ()], velocity: self[v, ()], time: time)
    }
}
