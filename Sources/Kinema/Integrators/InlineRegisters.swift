/// A method's registers as values, slot i in field i, for every family's slots (`StepSlot`,
/// `StageSlot`, `AdamsSlot`): the switch on a slot the method names is folded away after inlining,
/// so the optimizer keeps the registers in CPU registers as it keeps a value-form step's
/// temporaries (read through a pointer with the slot's index, they stayed in memory). A family
/// reads only its slots' fields; in a local file the others are removed.
@_spi(Engine) public struct InlineRegisters<Element> {
    @usableFromInline var f0: Element, f1: Element, f2: Element, f3: Element, f4: Element, f5: Element, f6: Element,
        f7: Element, f8: Element
    @usableFromInline var f9: Element, f10: Element, f11: Element, f12: Element, f13: Element, f14: Element,
        f15: Element, f16: Element, f17: Element
    @usableFromInline var f18: Element, f19: Element, f20: Element, f21: Element, f22: Element, f23: Element,
        f24: Element, f25: Element

    /// Every register `value`.
    @inlinable @inline(__always)
    public init(repeating value: Element) {
        (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12) = (
            value, value, value, value, value, value, value, value, value, value, value, value, value
        )
        (f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, f23, f24, f25) = (
            value, value, value, value, value, value, value, value, value, value, value, value, value
        )
    }

    @inlinable
    public subscript<Slot: RawRepresentable>(slot: Slot) -> Element where Slot.RawValue == Int {
        @inline(__always) get {
            switch slot.rawValue {
            case 0: return f0
            case 1: return f1
            case 2: return f2
            case 3: return f3
            case 4: return f4
            case 5: return f5
            case 6: return f6
            case 7: return f7
            case 8: return f8
            case 9: return f9
            case 10: return f10
            case 11: return f11
            case 12: return f12
            case 13: return f13
            case 14: return f14
            case 15: return f15
            case 16: return f16
            case 17: return f17
            case 18: return f18
            case 19: return f19
            case 20: return f20
            case 21: return f21
            case 22: return f22
            case 23: return f23
            case 24: return f24
            default: return f25
            }
        }
        @inline(__always) set {
            switch slot.rawValue {
            case 0: f0 = newValue
            case 1: f1 = newValue
            case 2: f2 = newValue
            case 3: f3 = newValue
            case 4: f4 = newValue
            case 5: f5 = newValue
            case 6: f6 = newValue
            case 7: f7 = newValue
            case 8: f8 = newValue
            case 9: f9 = newValue
            case 10: f10 = newValue
            case 11: f11 = newValue
            case 12: f12 = newValue
            case 13: f13 = newValue
            case 14: f14 = newValue
            case 15: f15 = newValue
            case 16: f16 = newValue
            case 17: f17 = newValue
            case 18: f18 = newValue
            case 19: f19 = newValue
            case 20: f20 = newValue
            case 21: f21 = newValue
            case 22: f22 = newValue
            case 23: f23 = newValue
            case 24: f24 = newValue
            default: f25 = newValue
            }
        }
    }
}
