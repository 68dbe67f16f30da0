/// One collision: when, who hit what, and the normal speed before and after.
public struct ImpactEvent: Hashable, Sendable {
    public var time: Double
    public var body: String
    public var collider: String
    public var speedIn: Double
    /// 0 when the impact ended in resting contact.
    public var speedOut: Double
    /// Each body whose velocity jumps (the body, and the collider when it is a body): where it is
    /// and its velocity before and after, the knots of a keyframe track through the impact.
    package var jumps: [VelocityJump] = []

    package struct VelocityJump: Hashable, Sendable {
        package var body: Int
        package var position: SIMD3<Double>
        package var before: SIMD3<Double>
        package var after: SIMD3<Double>
    }
}
