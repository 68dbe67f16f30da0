/// A state vector of any length in one contiguous heap buffer: the storage of scenes past 16
/// coordinates, where a fixed-width SIMD vector costs as much as its width, not the scene's work.
///
/// The operators allocate their result, which suits the code that does not step in place (`exact`);
/// every built-in method steps flat scenes in place (`FixedStepIntegrator` with `FlatStepStorage`,
/// `AdaptiveIntegrator` with `FlatAdaptiveStorage`, `AdamsBashforthMoulton` with `FlatAdamsStorage`),
/// with no allocation per step.
/// `zero` is the empty vector and reads as zeros at every lane, so generic code that starts from
/// `zero` and sets lanes grows it to the scene's size.
@_spi(Engine) public struct FlatVector: StateVector, Hashable, Sendable {
    /// The lanes, in order.
    public var lanes: [Double]

    @inlinable
    public init(_ lanes: [Double]) { self.lanes = lanes }

    /// `count` zeros.
    @inlinable
    public init(zeros count: Int) { lanes = Array(repeating: 0, count: count) }

    @inlinable public static var zero: FlatVector { FlatVector([]) }
    @inlinable public static var laneCount: Int { .max }
    @inlinable public static func laneCount(of vector: FlatVector) -> Int { vector.lanes.count }
    @inlinable public static func zero(like vector: FlatVector) -> FlatVector { FlatVector(zeros: vector.lanes.count) }

    @inlinable
    public static func lane(_ index: Int, of vector: FlatVector) -> Double {
        index < vector.lanes.count ? vector.lanes[index] : 0
    }

    @inlinable
    public static func setLane(_ index: Int, of vector: inout FlatVector, to value: Double) {
        if index >= vector.lanes.count {
            vector.lanes.append(contentsOf: repeatElement(0, count: index + 1 - vector.lanes.count))
        }
        vector.lanes[index] = value
    }

    @inlinable
    public static func withLanes<R>(of vector: FlatVector, _ body: (UnsafePointer<Double>) throws -> R) rethrows -> R {
        guard !vector.lanes.isEmpty else { return try Swift.withUnsafePointer(to: 0.0) { try body($0) } }
        return try vector.lanes.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    @inlinable
    public static func withMutableLanes<R>(
        of vector: inout FlatVector, _ body: (UnsafeMutablePointer<Double>) throws -> R
    ) rethrows -> R {
        guard !vector.lanes.isEmpty else {
            var nothing = 0.0
            return try Swift.withUnsafeMutablePointer(to: &nothing) { try body($0) }
        }
        return try vector.lanes.withUnsafeMutableBufferPointer { try body($0.baseAddress!) }
    }

    /// `lhs + scale·rhs` lane by lane, the shorter operand read as zeros past its end.
    @inlinable
    static func combine(_ lhs: FlatVector, _ scale: Double, _ rhs: FlatVector) -> FlatVector {
        let count = max(lhs.lanes.count, rhs.lanes.count)
        let l = lhs.lanes.count, r = rhs.lanes.count
        let result = [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
            lhs.lanes.withUnsafeBufferPointer { a in
                rhs.lanes.withUnsafeBufferPointer { b in
                    for i in 0..<count {
                        buffer[i] = (i < l ? a[i] : 0) + scale * (i < r ? b[i] : 0)
                    }
                }
            }
            initialized = count
        }
        return FlatVector(result)
    }

    @inlinable public static func + (lhs: FlatVector, rhs: FlatVector) -> FlatVector { combine(lhs, 1, rhs) }
    @inlinable public static func - (lhs: FlatVector, rhs: FlatVector) -> FlatVector { combine(lhs, -1, rhs) }
    @inlinable public static func * (lhs: Double, rhs: FlatVector) -> FlatVector {
        FlatVector(rhs.lanes.map { lhs * $0 })
    }

    @inlinable
    public static func lanewiseProduct(_ lhs: FlatVector, _ rhs: FlatVector) -> FlatVector {
        let count = min(lhs.lanes.count, rhs.lanes.count)
        var result = FlatVector(zeros: max(lhs.lanes.count, rhs.lanes.count))
        for i in 0..<count { result.lanes[i] = lhs.lanes[i] * rhs.lanes[i] }
        return result
    }

    @inlinable
    public static func allLanesFinite(_ vector: FlatVector) -> Bool {
        var sum = 0.0
        for x in vector.lanes { sum += x - x }  // 0 for finite lanes, NaN otherwise
        return sum == 0
    }
}

@_spi(Engine) extension PhaseState where Vector == FlatVector {
    /// `count` coordinates whose lane l (of 2·count: positions, then velocities) is `lane(l)`.
    init(count: Int, lanes lane: (Int) -> Double) {
        self.init(
            position: FlatVector((0..<count).map { lane($0) }),
            velocity: FlatVector((0..<count).map { lane(count + $0) }))
    }

    /// The state held in `count` positions then `count` velocities (a flat integrator's workspace slot).
    init(lanes: UnsafePointer<Double>, count: Int) {
        self.init(
            position: FlatVector(Array(UnsafeBufferPointer(start: lanes, count: count))),
            velocity: FlatVector(Array(UnsafeBufferPointer(start: lanes + count, count: count))))
    }

    /// Writes its `count` positions then `count` velocities into a workspace slot.
    func write(to lanes: UnsafeMutablePointer<Double>, count: Int) {
        for i in 0..<count {
            lanes[i] = position.lanes[i]
            lanes[count + i] = velocity.lanes[i]
        }
    }

    /// Sets it in place from a workspace slot's `count` positions then `count` velocities (sized
    /// already: nothing allocated).
    mutating func load(from lanes: UnsafePointer<Double>, count: Int) {
        position.lanes.withUnsafeMutableBufferPointer { x in
            velocity.lanes.withUnsafeMutableBufferPointer { v in
                for i in 0..<count {
                    x[i] = lanes[i]
                    v[i] = lanes[count + i]
                }
            }
        }
    }

    /// This state with exactly `count` lanes in each half (a `zero` flat vector has none).
    func sized(_ count: Int) -> PhaseState {
        var state = self
        if state.position.lanes.count < count {
            state.position.lanes += repeatElement(0, count: count - state.position.lanes.count)
        }
        if state.velocity.lanes.count < count {
            state.velocity.lanes += repeatElement(0, count: count - state.velocity.lanes.count)
        }
        return state
    }

    /// `sized(count)` in buffers of its own, for an integrator that steps its state in place: a
    /// buffer shared with the caller's state would be copied by the first step's write, an
    /// allocation inside the stepping loop rather than here.
    func owned(sizedTo count: Int) -> PhaseState {
        var state = sized(count)
        state.position.lanes.withUnsafeMutableBufferPointer { _ in }  // a write access copies a shared buffer
        state.velocity.lanes.withUnsafeMutableBufferPointer { _ in }
        return state
    }
}
