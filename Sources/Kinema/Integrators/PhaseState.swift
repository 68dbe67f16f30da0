/// Position and velocity of a second-order system, itself a state vector (lanes: positions, then
/// velocities), so first-order methods (RK4, Dormand–Prince) step it directly.
@_spi(Engine) public struct PhaseState<Vector: StateVector>: StateVector {
    public var position: Vector
    public var velocity: Vector

    @inlinable
    public init(position: Vector, velocity: Vector) {
        self.position = position
        self.velocity = velocity
    }

    @inlinable public static var zero: Self { Self(position: .zero, velocity: .zero) }

    @inlinable @inline(__always) public static func + (lhs: Self, rhs: Self) -> Self {
        Self(position: lhs.position + rhs.position, velocity: lhs.velocity + rhs.velocity)
    }

    @inlinable @inline(__always) public static func - (lhs: Self, rhs: Self) -> Self {
        Self(position: lhs.position - rhs.position, velocity: lhs.velocity - rhs.velocity)
    }

    @inlinable @inline(__always) public static func * (lhs: Double, rhs: Self) -> Self {
        Self(position: lhs * rhs.position, velocity: lhs * rhs.velocity)
    }

    @inlinable @inline(__always) public static func lanewiseProduct(_ lhs: Self, _ rhs: Self) -> Self {
        Self(
            position: .lanewiseProduct(lhs.position, rhs.position),
            velocity: .lanewiseProduct(lhs.velocity, rhs.velocity))
    }

    @inlinable public static func allLanesFinite(_ vector: Self) -> Bool {
        Vector.allLanesFinite(vector.position) && Vector.allLanesFinite(vector.velocity)
    }

    @inlinable public static var laneCount: Int { Vector.laneCount == .max ? .max : 2 * Vector.laneCount }
    @inlinable public static func laneCount(of vector: Self) -> Int { 2 * Vector.laneCount(of: vector.position) }
    @inlinable public static func zero(like vector: Self) -> Self {
        Self(position: .zero(like: vector.position), velocity: .zero(like: vector.velocity))
    }

    @inlinable public static func lane(_ index: Int, of vector: Self) -> Double {
        let half = Vector.laneCount(of: vector.position)
        return index < half ? Vector.lane(index, of: vector.position) : Vector.lane(index - half, of: vector.velocity)
    }

    @inlinable public static func setLane(_ index: Int, of vector: inout Self, to value: Double) {
        let half = Vector.laneCount(of: vector.position)
        if index < half {
            Vector.setLane(index, of: &vector.position, to: value)
        } else {
            Vector.setLane(index - half, of: &vector.velocity, to: value)
        }
    }

    /// Positions then velocities, copied into one buffer (nothing steps a phase state's lanes by
    /// pointer; this keeps the requirement honest for generic code).
    public static func withLanes<R>(of vector: Self, _ body: (UnsafePointer<Double>) throws -> R) rethrows -> R {
        let lanes = (0..<laneCount(of: vector)).map { lane($0, of: vector) }
        return try lanes.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    public static func withMutableLanes<R>(of vector: inout Self, _ body: (UnsafeMutablePointer<Double>) throws -> R)
        rethrows -> R
    {
        var lanes = (0..<laneCount(of: vector)).map { lane($0, of: vector) }
        let result = try lanes.withUnsafeMutableBufferPointer { try body($0.baseAddress!) }
        for (i, value) in lanes.enumerated() { setLane(i, of: &vector, to: value) }
        return result
    }
}
