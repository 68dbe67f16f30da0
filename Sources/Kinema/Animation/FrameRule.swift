/// The one rule of the per-frame calls (`advance(by:)` and `advance(to:)` of the animators and of
/// `PhysicsSimulator`, and the interruptions that take a time): a frame's duration is finite and
/// ≥ 0, a time finite and not before the current one. A frame comes from the display link, not from data, so breaking the rule is a
/// programmer error (a precondition, as in SwiftUI and Foundation), not an error to handle on
/// every frame.
enum FrameRule {
    static func requireDuration(_ duration: Double) {
        precondition(
            duration.isFinite && duration >= 0, "advance(by:): the frame duration \(duration) is not finite and ≥ 0")
    }

    static func requireTime(_ time: Double, from now: Double, in call: String = "advance(to:)") {
        precondition(time.isFinite && time >= now, "\(call): the time \(time) is not finite and ≥ \(now)")
    }
}
