/// A scene of any size: point bodies (moving or static) in 1, 2 or 3 dimensions, the forces on them (springs, uniform gravity,
/// linear drag) and what they collide with (planes, and each other as spheres).
///
/// Scenes are values; build them in Swift or read them from JSON (`PhysicsScene(json:)`, schema in the
/// README). Every initializer validates and throws `KinemaError` naming the problem.
public struct PhysicsScene: Hashable, Sendable {
    /// Sphere–sphere contact between bodies with a radius > 0.
    public struct Contacts: Hashable, Sendable {
        /// The coefficient of restitution of every sphere pair, in [0, 1]: the normal speed after
        /// an impact over the speed before.
        public private(set) var restitution: Double
        /// The Coulomb friction coefficient μ of every sphere pair (≥ 0; 0 is frictionless).
        public private(set) var friction: Double

        /// - Throws: `KinemaError` unless restitution is in [0, 1] and friction is finite and ≥ 0.
        public init(restitution: Double, friction: Double = 0) throws {
            guard restitution.isFinite, restitution >= 0, restitution <= 1 else {
                throw KinemaError(
                    parameter: "contacts restitution", value: "\(restitution)", rule: "a number in [0, 1]")
            }
            try KinemaError.requireNonNegative(friction, "contacts friction")
            self.restitution = restitution
            self.friction = friction
        }
    }

    /// The speed below which an impact ends in resting contact, unless a scene sets its own.
    public static let defaultRestVelocity = 0.01
    /// 1, 2 or 3: how many of each vector's components the scene uses (x, then y, then z).
    public let dimensions: Int
    /// The bodies, in the order indices name them (springs, trajectories, impacts).
    public let bodies: [PhysicsBody]
    /// Springs between bodies or from a body to a fixed anchor.
    public let springs: [SpringForce]
    /// Uniform gravitational acceleration (zero past the scene's dimensions).
    public let gravity: SIMD3<Double>
    /// Linear drag coefficient `b`: force `−b·v` on every body.
    public let drag: Double
    /// The planes bodies collide with, as spheres of their radius.
    public let planes: [Plane]
    /// Sphere–sphere contact between the bodies, or nil when bodies pass through each other.
    public let contacts: Contacts?
    /// Impact speed (normal component, after restitution) below which a body comes to rest on a
    /// plane instead of bouncing again; this ends the infinitely many bounces of e < 1 (Zeno).
    public let restVelocity: Double

    /// - Throws: `KinemaError` for dimensions outside 1…3, no bodies, two bodies of one name, a
    ///   vector with components past `dimensions` or not finite, a spring naming a body the scene
    ///   lacks, negative drag or rest velocity.
    public init(
        dimensions: Int, bodies: [PhysicsBody], springs: [SpringForce] = [], gravity: SIMD3<Double> = .zero,
        drag: Double = 0, planes: [Plane] = [], contacts: Contacts? = nil,
        restVelocity: Double = PhysicsScene.defaultRestVelocity
    ) throws {
        guard (1...3).contains(dimensions) else {
            throw KinemaError(parameter: "dimensions", value: "\(dimensions)", rule: "1, 2 or 3")
        }
        guard !bodies.isEmpty else {
            throw KinemaError(parameter: "bodies", value: "none", rule: "at least one body")
        }
        var names = Set<String>()
        for body in bodies {
            guard names.insert(body.name).inserted else {
                throw KinemaError(parameter: "body name", value: "'\(body.name)'", rule: "unique in the scene")
            }
            try KinemaError.requireWithin(dimensions: dimensions, body.position, "body '\(body.name)' position")
            try KinemaError.requireWithin(dimensions: dimensions, body.velocity, "body '\(body.name)' velocity")
        }
        for spring in springs {
            switch spring.ends {
            case let .anchor(body, anchor):
                guard bodies.indices.contains(body) else {
                    throw KinemaError(
                        parameter: "spring body", value: "\(body)", rule: "a body index in 0..<\(bodies.count)")
                }
                try KinemaError.requireWithin(dimensions: dimensions, anchor, "spring anchor")
            case let .bodies(a, b):
                guard bodies.indices.contains(a), bodies.indices.contains(b), a != b else {
                    throw KinemaError(
                        parameter: "spring bodies", value: "(\(a), \(b))", rule: "two different bodies of the scene")
                }
            }
        }
        try KinemaError.requireFinite(gravity, "gravity")
        try KinemaError.requireWithin(dimensions: dimensions, gravity, "gravity")
        try KinemaError.requireNonNegative(drag, "drag")
        for plane in planes {
            try KinemaError.requireWithin(dimensions: dimensions, plane.normal, "plane '\(plane.name)' normal")
        }
        try KinemaError.requireNonNegative(restVelocity, "restVelocity")
        self.dimensions = dimensions
        self.bodies = bodies
        self.springs = springs
        self.gravity = gravity
        self.drag = drag
        self.planes = planes
        self.contacts = contacts
        self.restVelocity = restVelocity
    }

    /// `scene` with the bodies `pinned` marks pinned where they are (`PhysicsBody.pinned()`).
    package init(_ scene: PhysicsScene, pinning pinned: [Bool]) {
        dimensions = scene.dimensions
        bodies = zip(scene.bodies, pinned).map { body, pinned in pinned ? body.pinned() : body }
        springs = scene.springs
        gravity = scene.gravity
        drag = scene.drag
        planes = scene.planes
        contacts = scene.contacts
        restVelocity = scene.restVelocity
    }

    /// The number of coordinates, bodies × dimensions.
    public var coordinateCount: Int { bodies.count * dimensions }

    /// The index of the body named `name` in `bodies`, or nil when the scene has none of that name.
    public func index(ofBody name: String) -> Int? { bodies.firstIndex { $0.name == name } }

    /// Whether anything can collide: a plane, or contacts between bodies.
    public var hasColliders: Bool { !planes.isEmpty || contacts != nil }

    /// The speed below which a bounce ends at rest: the rest velocity, or rounding's 1e-9 where
    /// it is 0 (an elastic scene's grazing contacts).
    var restSpeed: Double { Self.restSpeed(restVelocity: restVelocity) }

    static func restSpeed(restVelocity: Double) -> Double { max(restVelocity, ContactTolerances.leastRestSpeed) }

    /// The rest rule of every run, stepped, time-stepped or event-driven: two touching sides
    /// moving along their normal at `speed` (a bounce's speed out, or how fast they part or
    /// close at the start or while held) rest on each other where it is slower than `restSpeed`
    /// and the forces press them together.
    func rests(movingAt speed: Double, pressed: @autoclosure () -> Bool) -> Bool {
        speed < restSpeed && pressed()
    }
}

extension PhysicsScene {
    /// A 1-D spring pulling a body of the spring's mass from `start` towards `target`:
    /// `m·x'' = −k·(x − target) − c·x'`.
    public static func spring(
        _ spring: DampedSpring, from start: Double = 0, to target: Double = 1,
        initialVelocity: Double = 0
    ) throws -> PhysicsScene {
        try KinemaError.requireFinite(start, "from")
        try KinemaError.requireFinite(target, "to")
        try KinemaError.requireFinite(initialVelocity, "velocity")
        try KinemaError.requireFinite(target - start, "travel (to − from)")
        let body = try PhysicsBody(
            name: "body", mass: spring.mass, position: SIMD3(start, 0, 0), velocity: SIMD3(initialVelocity, 0, 0))
        let force = try SpringForce(
            .anchor(body: 0, at: SIMD3(target, 0, 0)), stiffness: spring.stiffness, damping: spring.damping)
        return try PhysicsScene(dimensions: 1, bodies: [body], springs: [force])
    }

    /// A 1-D ball dropped from `height` onto a floor at 0: x is the height above the floor.
    public static func drop(
        height: Double = 1, gravity: Double = 9.81, restitution: Double = 0.5,
        restVelocity: Double = PhysicsScene.defaultRestVelocity, initialVelocity: Double = 0
    ) throws -> PhysicsScene {
        try KinemaError.requireNonNegative(height, "height")
        try KinemaError.requireNonNegative(gravity, "gravity")
        let ball = try PhysicsBody(name: "ball", position: SIMD3(height, 0, 0), velocity: SIMD3(initialVelocity, 0, 0))
        return try PhysicsScene(
            dimensions: 1, bodies: [ball], gravity: SIMD3(-gravity, 0, 0),
            planes: [Plane.floor(dimensions: 1, restitution: restitution)], restVelocity: restVelocity)
    }
}
