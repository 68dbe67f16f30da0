import RealModule

/// A flat collider: bodies stay on the side `n·x ≥ offset + radius`.
public struct Plane: Hashable, Sendable {
    /// The plane's name, unique among the scene's planes (impacts name it).
    public private(set) var name: String
    /// The unit normal, pointing into the allowed side (zero past the scene's dimensions).
    public private(set) var normal: SIMD3<Double>
    /// The plane's distance from the origin along `normal`.
    public private(set) var offset: Double
    /// The fraction of normal speed kept at an impact, in [0, 1].
    public private(set) var restitution: Double
    /// Coulomb friction coefficient (≥ 0) for the tangential impulse, and for a body resting on
    /// the plane: held while what pulls it along is at most μ times the normal force, else slowed.
    public private(set) var friction: Double

    /// - Throws: `KinemaError` for a zero or non-finite normal, restitution outside [0, 1] or
    ///   negative friction.
    public init(
        name: String, normal: SIMD3<Double>, offset: Double = 0, restitution: Double, friction: Double = 0
    ) throws {
        let largest = max(abs(normal.x), abs(normal.y), abs(normal.z))
        guard largest.isFinite, largest > 0 else {
            throw KinemaError(
                parameter: "plane '\(name)' normal", value: normal.sceneText(), rule: "a finite, non-zero vector")
        }
        // Any finite direction: where the squares overflow or underflow (components past 1e150
        // or small enough that its square is not normal), the vector is scaled by its largest component first.
        var direction = normal, length = (normal * normal).sum().squareRoot()
        if !(length.isFinite && length > Double.leastNormalMagnitude.squareRoot()) {
            direction = normal / largest
            length = (direction * direction).sum().squareRoot()
        }
        try KinemaError.requireFinite(offset, "plane '\(name)' offset")
        guard restitution.isFinite, restitution >= 0, restitution <= 1 else {
            throw KinemaError(parameter: "restitution", value: "\(restitution)", rule: "a number in [0, 1]")
        }
        try KinemaError.requireNonNegative(friction, "plane '\(name)' friction")
        self.name = name
        self.normal = direction / length
        self.offset = offset
        self.restitution = restitution
        self.friction = friction
    }

    /// A floor at height `offset` for 1-, 2- or 3-D scenes (the last axis is up).
    public static func floor(dimensions: Int, height: Double = 0, restitution: Double, friction: Double = 0) throws
        -> Plane
    {
        guard (1...3).contains(dimensions) else {
            throw KinemaError(parameter: "dimensions", value: "\(dimensions)", rule: "1, 2 or 3")
        }
        var normal = SIMD3<Double>.zero
        normal[dimensions - 1] = 1
        return try Plane(name: "floor", normal: normal, offset: height, restitution: restitution, friction: friction)
    }
}
