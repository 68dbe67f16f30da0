/// A point body: mass, position, velocity and, for collisions, a radius. A static body is pinned
/// where it is (infinite mass): springs and colliding bodies push on it and it does not move.
///
/// Positions and velocities are `SIMD3<Double>` in scenes of every dimension: a 1-D scene uses x,
/// a 2-D one x and y, and the components past the scene's dimensions are zero.
public struct PhysicsBody: Hashable, Sendable {
    /// The body's name, unique in its scene (impacts, CSV columns and exports name it).
    public private(set) var name: String
    /// Mass in kilograms (> 0; not used by a static body).
    public private(set) var mass: Double
    /// Position at time 0, in metres.
    public private(set) var position: SIMD3<Double>
    /// Velocity at time 0, in metres per second.
    public private(set) var velocity: SIMD3<Double>
    /// Collision radius in metres: 0 is a point, which collides with planes only.
    public private(set) var radius: Double
    /// Pinned in place: infinite mass, so no force or impact moves it (its `mass` is not used).
    public private(set) var isStatic: Bool

    /// Creates a body. Checked against its scene's dimensions by `PhysicsScene.init`.
    /// - Throws: `KinemaError` unless mass > 0, radius ≥ 0 and every component are finite, and
    ///   a static body's velocity is zero.
    public init(
        name: String, mass: Double = 1, position: SIMD3<Double>, velocity: SIMD3<Double> = .zero, radius: Double = 0,
        isStatic: Bool = false
    ) throws {
        try KinemaError.requirePositive(mass, "body '\(name)' mass")
        try KinemaError.requireNonNegative(radius, "body '\(name)' radius")
        try KinemaError.requireFinite(position, "body '\(name)' position")
        try KinemaError.requireFinite(velocity, "body '\(name)' velocity")
        if isStatic, velocity != .zero {
            throw KinemaError(
                parameter: "static body '\(name)' velocity", value: velocity.sceneText(),
                rule: "zero (a static body does not move)")
        }
        self.name = name
        self.mass = mass
        self.position = position
        self.velocity = velocity
        self.radius = radius
        self.isStatic = isStatic
    }

    /// The body pinned where it is (static, still): a sleeping body, to the stepper.
    package func pinned() -> PhysicsBody {
        var body = self
        (body.isStatic, body.velocity) = (true, .zero)
        return body
    }

    /// 1/mass, and 0 for a static body.
    package var inverseMass: Double { isStatic ? 0 : 1 / mass }
}
