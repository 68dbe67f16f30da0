/// A vector of doubles the integrators can step: `zero`, `+`, `-` and scalar `*`, spelled out here
/// rather than refining `AdditiveArithmetic`, which SIMD types cannot adopt.
///
/// `Double` and `SIMD2/3/4/8/16/32/64<Double>` conform; the lanes are read by index for error norms and
/// written by index by scenes, so generic code stays specialized (no existentials, no allocation).
/// The lane requirements are static, as swift-numerics spells its requirements, so they add no
/// members to `Double` or SIMD values in client code.
public protocol StateVector: Sendable {
    static var zero: Self { get }
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static func * (lhs: Double, rhs: Self) -> Self
    /// The number of lanes.
    static var laneCount: Int { get }
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

extension StateVector {
    /// Lane access for the package's own generic code (not visible to clients).
    @inlinable
    package subscript(lane index: Int) -> Double {
        @inline(__always) get { Self.lane(index, of: self) }
        @inline(__always) set { Self.setLane(index, of: &self, to: newValue) }
    }

    @inlinable
    package var allLanesFinite: Bool { Self.allLanesFinite(self) }
}

extension SIMD where Scalar == Double {
    /// x − x is 0 for a finite x and NaN for ±∞ or NaN.
    @inlinable @inline(__always) public static func allLanesFinite(_ vector: Self) -> Bool { (vector - vector).sum() == 0 }
    @inlinable @inline(__always) public static func lanewiseProduct(_ lhs: Self, _ rhs: Self) -> Self { lhs * rhs }
    @inlinable @inline(__always) public static func lane(_ index: Int, of vector: Self) -> Double { vector[index] }
    @inlinable @inline(__always) public static func setLane(_ index: Int, of vector: inout Self, to value: Double) {
        vector[index] = value
    }
}

extension Double: StateVector {
    @inlinable public static func allLanesFinite(_ vector: Self) -> Bool { vector.isFinite }
    @inlinable public static var laneCount: Int { 1 }
    @inlinable @inline(__always) public static func lanewiseProduct(_ lhs: Self, _ rhs: Self) -> Self { lhs * rhs }
    @inlinable @inline(__always) public static func lane(_ index: Int, of vector: Self) -> Double { vector }
    @inlinable @inline(__always) public static func setLane(_ index: Int, of vector: inout Self, to value: Double) {
        vector = value
    }
}

extension SIMD2: StateVector where Scalar == Double {
    @inlinable public static var laneCount: Int { 2 }
}

extension SIMD3: StateVector where Scalar == Double {
    @inlinable public static var laneCount: Int { 3 }
}

extension SIMD4: StateVector where Scalar == Double {
    @inlinable public static var laneCount: Int { 4 }
}

extension SIMD8: StateVector where Scalar == Double {
    @inlinable public static var laneCount: Int { 8 }
}

extension SIMD16: StateVector where Scalar == Double {
    @inlinable public static var laneCount: Int { 16 }
}

extension SIMD32: StateVector where Scalar == Double {
    @inlinable public static var laneCount: Int { 32 }
}

extension SIMD64: StateVector where Scalar == Double {
    @inlinable public static var laneCount: Int { 64 }
}
