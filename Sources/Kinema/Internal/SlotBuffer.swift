/// A fixed number of values on the heap, for a value type that copies it on write itself
/// (`isKnownUniquelyReferenced`, then `init(copying:)`) and reads and writes through `base`
/// directly, with no closure scope and no check per access. Its owner's destroy is one release:
/// the same values stored inline in a generic struct are destroyed one by one, each through its
/// type's value witness.
@usableFromInline
final class SlotBuffer<Element> {
    @usableFromInline let base: UnsafeMutablePointer<Element>
    @usableFromInline let count: Int

    @inlinable
    init(repeating value: Element, count: Int) {
        base = .allocate(capacity: count)
        base.initialize(repeating: value, count: count)
        self.count = count
    }

    @inlinable
    init(copying other: SlotBuffer) {
        base = .allocate(capacity: other.count)
        base.initialize(from: other.base, count: other.count)
        count = other.count
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }
}
