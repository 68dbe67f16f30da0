/// A point body: mass, position, velocity and, for collisions, a radius. A static body is pinned
/// where it is (infinite mass): springs and colliding bodies push on it and it does not move.
public struct PhysicsBody: Hashable, Sendable, Codable {
    public private(set) var name: String
    public private(set) var mass: Double
    public private(set) var position: [Double]
    public private(set) var velocity: [Double]
    public private(set) var radius: Double
    /// Pinned in place: infinite mass, so no force or impact moves it (its `mass` is not used).
    public private(set) var isStatic: Bool

    /// Creates a body. Checked against its scene's dimension by `PhysicsScene.init`.
    /// - Throws: `KinemaError` unless mass > 0, radius ≥ 0 and every coordinate are finite, and
    ///   a static body's velocity is zero.
    public init(
        name: String, mass: Double = 1, position: [Double], velocity: [Double]? = nil, radius: Double = 0,
        isStatic: Bool = false
    ) throws {
        try KinemaError.requirePositive(mass, "body '\(name)' mass")
        try KinemaError.requireNonNegative(radius, "body '\(name)' radius")
        for x in position { try KinemaError.requireFinite(x, "body '\(name)' position") }
        for v in velocity ?? [] { try KinemaError.requireFinite(v, "body '\(name)' velocity") }
        if isStatic, let velocity, velocity.contains(where: { $0 != 0 }) {
            throw KinemaError(
                parameter: "static body '\(name)' velocity", value: "\(velocity)",
                rule: "zero (a static body does not move)")
        }
        self.name = name
        self.mass = mass
        self.position = position
        self.velocity = velocity ?? Array(repeating: 0, count: position.count)
        self.radius = radius
        self.isStatic = isStatic
    }

    /// 1/mass, and 0 for a static body.
    public var inverseMass: Double { isStatic ? 0 : 1 / mass }

    enum CodingKeys: String, CodingKey { case name, mass, position, velocity, radius, isStatic = "static" }

    /// Decodes the scene file's body keys; `static` may be left out (false).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            name: c.decode(String.self, forKey: .name), mass: c.decodeIfPresent(Double.self, forKey: .mass) ?? 1,
            position: c.decode([Double].self, forKey: .position),
            velocity: c.decodeIfPresent([Double].self, forKey: .velocity),
            radius: c.decodeIfPresent(Double.self, forKey: .radius) ?? 0,
            isStatic: c.decodeIfPresent(Bool.self, forKey: .isStatic) ?? false)
    }
}
