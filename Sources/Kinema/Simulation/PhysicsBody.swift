/// A point body: mass, position, velocity and, for collisions, a radius.
public struct PhysicsBody: Hashable, Sendable, Codable {
    public private(set) var name: String
    public private(set) var mass: Double
    public private(set) var position: [Double]
    public private(set) var velocity: [Double]
    public private(set) var radius: Double

    /// Creates a body. Checked against its scene's dimension by `PhysicsScene.init`.
    /// - Throws: `KinemaError` unless mass > 0, radius ≥ 0 and every coordinate are finite.
    public init(name: String, mass: Double = 1, position: [Double], velocity: [Double]? = nil, radius: Double = 0) throws {
        try KinemaError.requirePositive(mass, "body '\(name)' mass")
        try KinemaError.requireNonNegative(radius, "body '\(name)' radius")
        for x in position { try KinemaError.requireFinite(x, "body '\(name)' position") }
        for v in velocity ?? [] { try KinemaError.requireFinite(v, "body '\(name)' velocity") }
        self.name = name
        self.mass = mass
        self.position = position
        self.velocity = velocity ?? Array(repeating: 0, count: position.count)
        self.radius = radius
    }
}
