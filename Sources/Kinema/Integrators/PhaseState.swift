/// Position and velocity of a second-order system, itself a state vector (lanes: positions, then
/// velocities), so first-order methods (RK4, Dormand–Prince) step it directly.
public struct PhaseState<Vector: StateVector>: StateVector {
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
        Self(position: .lanewiseProduct(lhs.position, rhs.position), velocity: .lanewiseProduct(lhs.velocity, rhs.velocity))
    }

    @inlinable public static func allLanesFinite(_ vector: Self) -> Bool {
        Vector.allLanesFinite(vector.position) && Vector.allLanesFinite(vector.velocity)
    }

    @inlinable public static var laneCount: Int { 2 * Vector.laneCount }

    @inlinable public static func lane(_ index: Int, of vector: Self) -> Double {
        index < Vector.laneCount ? Vector.lane(index, of: vector.position) : Vector.lane(index - Vector.laneCount, of: vector.velocity)
    }

    @inlinable public static func setLane(_ index: Int, of vector: inout Self, to value: Double) {
        if index < Vector.laneCount {
            Vector.setLane(index, of: &vector.position, to: value)
        } else {
            Vector.setLane(index - Vector.laneCount, of: &vector.velocity, to: value)
        }
    }
}
