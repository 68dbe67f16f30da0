/// A vector of doubles the integrators can step: `zero`, `+`, `-` and scalar `*`, spelled out here
/// rather than refining `AdditiveArithmetic`, which SIMD types cannot adopt.
///
/// `Double` and `SIMD2/3/4/8/16<Double>` conform, and `FlatVector` (any length, one heap buffer) for
/// scenes past 16 coordinates; the lanes are read by index for error norms and written by index by
/// scenes, so generic code stays specialized (no existentials).
/// The lane requirements are static, as swift-numerics spells its requirements, so they add no
/// members to `Double` or SIMD values in client code.
@_spi(Engine) public protocol StateVector: Sendable {
    static var zero: Self { get }
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static func * (lhs: Double, rhs: Self) -> Self
    /// The most lanes a vector of this type holds (`Int.max` for `FlatVector`).
    static var laneCount: Int { get }
    /// The lanes `vector` holds (`laneCount` for the fixed-width types).
    static func laneCount(of vector: Self) -> Int
    /// A vector of zeros as long as `vector` (`zero` for the fixed-width types).
    static func zero(like vector: Self) -> Self
    /// Calls `body` with the lanes of `vector` as contiguous doubles (SIMD lanes are contiguous), so
    /// one pointer loop computes a scene's forces for every vector type.
    static func withLanes<R>(of vector: Self, _ body: (UnsafePointer<Double>) throws -> R) rethrows -> R
    /// Calls `body` with the lanes of `vector` as contiguous, writable doubles.
    static func withMutableLanes<R>(of vector: inout Self, _ body: (UnsafeMutablePointer<Double>) throws -> R) rethrows
        -> R
    /// Lane `index` of `vector`, for `0 ..< laneCount`.
    static func lane(_ index: Int, of vector: Self) -> Double
    /// Sets lane `index` of `vector` to `value`.
    static func setLane(_ index: Int, of vector: inout Self, to value: Double)
    /// The lane-wise product (named, not `*`, so that the integrators' long sums of
    /// scalar × vector terms stay quick to type-check).
    static func lanewiseProduct(_ lhs: Self, _ rhs: Self) -> Self
    /// Whether every lane of `vector` is finite (the simulator checks it after every step, so it
    /// is one vector comparison, not a loop over lanes).
    static func allLanesFinite(_ vector: Self) -> Bool
}

@_spi(Engine) extension StateVector {
    @inlinable @inline(__always) public static func laneCount(of vector: Self) -> Int { laneCount }
    @inlinable @inline(__always) public static func zero(like vector: Self) -> Self { zero }

    /// Lane access for the package's own generic code (not visible to clients).
    @inlinable
    package subscript(lane index: Int) -> Double {
        @inline(__always) get { Self.lane(index, of: self) }
        @inline(__always) set { Self.setLane(index, of: &self, to: newValue) }
    }

    @inlinable
    package var allLanesFinite: Bool { Self.allLanesFinite(self) }
}

@_spi(Engine) extension SIMD where Scalar == Double {
    @inlinable @inline(__always)
    public static func withLanes<R>(of vector: Self, _ body: (UnsafePointer<Double>) throws -> R) rethrows -> R {
        try Swift.withUnsafeBytes(of: vector) { try body($0.baseAddress!.assumingMemoryBound(to: Double.self)) }
    }

    @inlinable @inline(__always)
    public static func withMutableLanes<R>(of vector: inout Self, _ body: (UnsafeMutablePointer<Double>) throws -> R)
        rethrows -> R
    {
        try Swift.withUnsafeMutableBytes(of: &vector) { try body($0.baseAddress!.assumingMemoryBound(to: Double.self)) }
    }

    /// x − x is 0 for a finite x and NaN for ±∞ or NaN.
    @inlinable @inline(__always) public static func allLanesFinite(_ vector: Self) -> Bool {
        (vector - vector).sum() == 0
    }
    @inlinable @inline(__always) public static func lanewiseProduct(_ lhs: Self, _ rhs: Self) -> Self { lhs * rhs }
    @inlinable @inline(__always) public static func lane(_ index: Int, of vector: Self) -> Double { vector[index] }
    @inlinable @inline(__always) public static func setLane(_ index: Int, of vector: inout Self, to value: Double) {
        vector[index] = value
    }
}

@_spi(Engine) extension Double: StateVector {
    @inlinable @inline(__always)
    public static func withLanes<R>(of vector: Self, _ body: (UnsafePointer<Double>) throws -> R) rethrows -> R {
        try Swift.withUnsafePointer(to: vector) { try body($0) }
    }

    @inlinable @inline(__always)
    public static func withMutableLanes<R>(of vector: inout Self, _ body: (UnsafeMutablePointer<Double>) throws -> R)
        rethrows -> R
    {
        try Swift.withUnsafeMutablePointer(to: &vector) { try body($0) }
    }

    @inlinable public static func allLanesFinite(_ vector: Self) -> Bool { vector.isFinite }
    @inlinable public static var laneCount: Int { 1 }
    @inlinable @inline(__always) public static func lanewiseProduct(_ lhs: Self, _ rhs: Self) -> Self { lhs * rhs }
    @inlinable @inline(__always) public static func lane(_ index: Int, of vector: Self) -> Double { vector }
    @inlinable @inline(__always) public static func setLane(_ index: Int, of vector: inout Self, to value: Double) {
        vector = value
    }
}

@_spi(Engine) extension SIMD2: StateVector where Scalar == Double {
    @inlinable public static var laneCount: Int { 2 }
}

@_spi(Engine) extension SIMD3: StateVector where Scalar == Double {
    @inlinable public static var laneCount: Int { 3 }
}

@_spi(Engine) extension SIMD4: StateVector where Scalar == Double {
    @inlinable public static var laneCount: Int { 4 }
}

@_spi(Engine) extension SIMD8: StateVector where Scalar == Double {
    @inlinable public static var laneCount: Int { 8 }
}

@_spi(Engine) extension SIMD16: StateVector where Scalar == Double {
    @inlinable public static var laneCount: Int { 16 }
}
