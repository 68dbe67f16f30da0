/// A vector of doubles the integrators can step: `zero`, `+`, `-` and scalar `*`, spelled out here
/// rather than refining `AdditiveArithmetic`, which SIMD types cannot adopt.
///
/// `Double` and `SIMD2/3/4/8/16/32/64<Double>` conform; the lanes are read by index for error norms and
/// written by index by scenes, so generic code stays specialized (no existentials, no allocation).
public protocol StateVector: Sendable {
    static var zero: Self { get }
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static func * (lhs: Double, rhs: Self) -> Self
    /// The number of lanes.
    static var laneCount: Int { get }
    /// Lane `index`, for `0 ..< laneCount`.
    subscript(lane index: Int) -> Double { get set }
    /// The lane-wise product (named, not `*`, so that the integrators' long sums of
    /// scalar × vector terms stay quick to type-check).
    static func lanewiseProduct(_ lhs: Self, _ rhs: Self) -> Self
    /// Whether every lane is finite (the simulator checks it after every step, so it is one
    /// vector comparison, not a loop over lanes).
    var allLanesFinite: Bool { get }
}

extension SIMD where Scalar == Double {
    /// x − x is 0 for a finite x and NaN for ±∞ or NaN.
    @inlinable @inline(__always) public var allLanesFinite: Bool { (self - self).sum() == 0 }
    @inlinable @inline(__always) public static func lanewiseProduct(_ lhs: Self, _ rhs: Self) -> Self { lhs * rhs }
}

extension Double: StateVector {
    @inlinable public var allLanesFinite: Bool { isFinite }
    @inlinable public static var laneCount: Int { 1 }
    @inlinable @inline(__always) public static func lanewiseProduct(_ lhs: Self, _ rhs: Self) -> Self { lhs * rhs }
    @inlinable public subscript(lane index: Int) -> Double {
        get { self }
        set { self = newValue }
    }
}

extension SIMD2: StateVector where Scalar == Double {
    @inlinable public static var laneCount: Int { 2 }
    @inlinable public subscript(lane index: Int) -> Double {
        get { self[index] }
        set { self[index] = newValue }
    }
}

extension SIMD3: StateVector where Scalar == Double {
    @inlinable public static var laneCount: Int { 3 }
    @inlinable public subscript(lane index: Int) -> Double {
        get { self[index] }
        set { self[index] = newValue }
    }
}

extension SIMD4: StateVector where Scalar == Double {
    @inlinable public static var laneCount: Int { 4 }
    @inlinable public subscript(lane index: Int) -> Double {
        get { self[index] }
        set { self[index] = newValue }
    }
}

extension SIMD8: StateVector where Scalar == Double {
    @inlinable public static var laneCount: Int { 8 }
    @inlinable public subscript(lane index: Int) -> Double {
        get { self[index] }
        set { self[index] = newValue }
    }
}

extension SIMD16: StateVector where Scalar == Double {
    @inlinable public static var laneCount: Int { 16 }
    @inlinable public subscript(lane index: Int) -> Double {
        get { self[index] }
        set { self[index] = newValue }
    }
}

extension SIMD32: StateVector where Scalar == Double {
    @inlinable public static var laneCount: Int { 32 }
    @inlinable public subscript(lane index: Int) -> Double {
        get { self[index] }
        set { self[index] = newValue }
    }
}

extension SIMD64: StateVector where Scalar == Double {
    @inlinable public static var laneCount: Int { 64 }
    @inlinable public subscript(lane index: Int) -> Double {
        get { self[index] }
        set { self[index] = newValue }
    }
}
