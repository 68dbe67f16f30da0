/// Twelve values stored inline in a homogeneous tuple, read and written through a typed pointer: the
/// fixed-size, allocation-free storage that the standard library's `InlineArray` gives only from
/// iOS 26 / macOS 26 on, for every OS the library supports (a homogeneous tuple is laid out as a C
/// array, which is how Swift imports C's fixed-size arrays).
@usableFromInline
struct InlineStorage12<Element> {
    @usableFromInline var elements:
        (Element, Element, Element, Element, Element, Element, Element, Element, Element, Element, Element, Element)

    @inlinable
    init(repeating value: Element) {
        elements = (value, value, value, value, value, value, value, value, value, value, value, value)
    }

    /// Element `index`, unchecked: callers keep `index` in 0 ..< 12 (asserted in debug builds).
    @inlinable
    subscript(index: Int) -> Element {
        // A mutating get, so the read goes through the storage's own address: a non-mutating
        // one hands `withUnsafePointer` a copy of the whole tuple.
        @inline(__always) mutating get {
            assert(index >= 0 && index < 12)
            return withUnsafeMutablePointer(to: &elements) {
                UnsafeMutableRawPointer($0).assumingMemoryBound(to: Element.self)[index]
            }
        }
        @inline(__always) set {
            assert(index >= 0 && index < 12)
            withUnsafeMutablePointer(to: &elements) {
                UnsafeMutableRawPointer($0).assumingMemoryBound(to: Element.self)[index] = newValue
            }
        }
    }
}
