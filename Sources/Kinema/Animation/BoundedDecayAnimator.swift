/// A flick inside bounds that hands over to a spring at an edge, as a scroll view does: it
/// decelerates (`Decay`) until it meets `bounds`, then a spring from the edge, with the velocity
/// it had there, carries it past the edge and back onto it. Released outside the bounds (after a
/// rubber-banded drag), the spring starts at once towards the nearer edge.
///
/// Exact in both phases: the meeting time is solved in closed form
/// (`Decay.time(toReach:from:velocity:)`) and each phase is its closed-form motion, so nothing
/// depends on the frame durations. One axis; a 2-D scroll view runs one per axis.
public struct BoundedDecayAnimator: Sendable {
    /// The range the value comes to rest in.
    public let bounds: ClosedRange<Double>
    /// When the decay meets an edge and the spring takes over (seconds since the release), or
    /// `nil` when the decay comes to rest inside the bounds.
    public let handOffTime: Double?
    /// Seconds since the release.
    public private(set) var time: Double = 0

    /// The decay from the release.
    public private(set) var fling: DecayAnimator<Double>
    /// The spring from the hand-off (its clock starts at `handOffTime`).
    public private(set) var bounce: SpringAnimator<Double>?

    /// Creates the motion released at `value` with `velocity` (units per second).
    /// - Precondition: `value`, `velocity` and the bounds are finite, and `restSpeed` and
    ///   `tolerance` finite and > 0 (values the app computes: the rule of every animator call).
    public init(
        value: Double, velocity: Double, bounds: ClosedRange<Double>, decay: Decay = .normal,
        spring: DampedSpring = .smooth, restSpeed: Double = 0.01, tolerance: Double = 0.001
    ) {
        KinemaError.precondition {
            try KinemaError.requireFinite(bounds.lowerBound, "bounds lower end")
            try KinemaError.requireFinite(bounds.upperBound, "bounds upper end")
            try KinemaError.requirePositive(tolerance, "tolerance")
        }
        self.bounds = bounds
        fling = DecayAnimator(decay: decay, value: value, velocity: velocity, restSpeed: restSpeed)
        if !bounds.contains(value) {
            handOffTime = 0
            bounce = SpringAnimator(
                spring: spring, value: value, velocity: velocity,
                target: value < bounds.lowerBound ? bounds.lowerBound : bounds.upperBound,
                tolerance: tolerance)
            return
        }
        let edge = velocity < 0 ? bounds.lowerBound : bounds.upperBound
        if velocity != 0, let meeting = decay.time(toReach: edge, from: value, velocity: velocity) {
            handOffTime = meeting
            bounce = SpringAnimator(
                spring: spring, value: edge, velocity: decay.velocity(velocity, after: meeting),
                target: edge, tolerance: tolerance)
        } else {
            handOffTime = nil
        }
    }

    /// Whether the spring has taken over.
    public var isSpringing: Bool { handOffTime.map { time >= $0 } ?? false }

    /// Whether the motion has come to rest (inside the bounds, or settled on an edge). A decay
    /// bound for an edge is not at rest before it meets the edge, however slow it has become:
    /// its projected end lies outside the bounds.
    public var isSettled: Bool {
        if isSpringing { return bounce?.isSettled ?? true }
        return handOffTime == nil && fling.isSettled
    }

    /// The value now (once a decay inside the bounds settles, its projected end).
    public var value: Double { handOffTime == nil ? fling.value : value(at: time) }

    /// The velocity now.
    public var velocity: Double {
        if isSpringing, let bounce, let handOffTime { return bounce.velocity(at: time - handOffTime) }
        return handOffTime == nil ? fling.velocity : fling.decay.velocity(fling.initialVelocity, after: time)
    }

    /// The value at `time` (seconds since the release), without advancing.
    public func value(at time: Double) -> Double {
        if let handOffTime, let bounce, time >= handOffTime { return bounce.value(at: time - handOffTime) }
        return fling.value(at: time)
    }

    /// Advances by one frame of `duration` seconds (zero leaves the motion where it is), handing
    /// over to the spring inside the frame where the decay meets the edge.
    /// - Returns: `true` on the advance that brings the motion to rest.
    /// - Precondition: `duration` is finite and ≥ 0 (see `SpringAnimator.advance(by:)`).
    @discardableResult
    public mutating func advance(by duration: Double) -> Bool {
        FrameRule.requireDuration(duration)
        return advance(to: time + duration)
    }

    /// Advances to `time` (seconds since the release, not before the current time).
    /// - Returns: `true` on the advance that brings the motion to rest.
    /// - Precondition: `time` is finite and not before the animator's time.
    @discardableResult
    public mutating func advance(to time: Double) -> Bool {
        FrameRule.requireTime(time, from: self.time)
        let wasSettled = isSettled
        self.time = time
        if isSpringing, let handOffTime {
            bounce?.advance(to: time - handOffTime)
        } else {
            fling.advance(to: time)
        }
        return !wasSettled && isSettled
    }
}
