/// One collision: when, who hit what, and the normal speed before and after.
public struct ImpactEvent: Hashable, Sendable {
    public var time: Double
    public var body: String
    public var collider: String
    public var speedIn: Double
    /// 0 when the impact ended in resting contact.
    public var speedOut: Double
}
