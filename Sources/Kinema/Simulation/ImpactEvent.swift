/// One collision: when, who hit what, and the normal speed before and after.
public struct ImpactEvent: Hashable, Sendable {
    /// What a body hit: another body or a plane, by its index in the scene.
    public enum Collider: Hashable, Sendable {
        /// `PhysicsScene.bodies[index]`.
        case body(Int)
        /// `PhysicsScene.planes[index]`.
        case plane(Int)
    }

    /// When, in seconds from the start.
    public var time: Double
    /// The name of the body that hit (of a pair, the lower index).
    public var body: String
    /// The name of what it hit: a plane's or the other body's.
    public var collider: String
    /// The index in `PhysicsScene.bodies` of the body that hit.
    public var bodyIndex: Int
    /// What it hit, by index.
    public var hit: Collider
    /// The normal speed of approach before the impact, in metres per second (> 0).
    public var speedIn: Double
    /// 0 when the impact ended in resting contact.
    public var speedOut: Double
    /// Each body whose velocity jumps (the body, and the collider when it is a body): where it is
    /// and its velocity before and after, the knots of a keyframe track through the impact.
    package var jumps: [VelocityJump] = []

    /// An impact of `body` on `hit` in `scene`, named as the scene names them.
    package init(
        time: Double, body: Int, hit: Collider, in scene: PhysicsScene, speedIn: Double, speedOut: Double,
        jumps: [VelocityJump]
    ) {
        self.time = time
        self.body = scene.bodies[body].name
        switch hit {
        case .body(let other): collider = scene.bodies[other].name
        case .plane(let plane): collider = scene.planes[plane].name
        }
        bodyIndex = body
        self.hit = hit
        self.speedIn = speedIn
        self.speedOut = speedOut
        self.jumps = jumps
    }

    package struct VelocityJump: Hashable, Sendable {
        package var body: Int
        package var position: SIMD3<Double>
        package var before: SIMD3<Double>
        package var after: SIMD3<Double>
    }
}
