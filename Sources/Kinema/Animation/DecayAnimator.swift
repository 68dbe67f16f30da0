/// A flick an app drives frame by frame: exponential deceleration from a release velocity
/// (`Decay`), exact at every frame (closed form from the release, no per-frame feedback).
/// ```swift
/// var fling = DecayAnimator(decay: .normal, value: offset, velocity: gestureVelocity)
/// let snapPoint = fling.projectedEnd                 // choose where it lands before it moves
/// while !fling.isSettled { fling.advance(by: frameDuration) }
/// ```
public struct DecayAnimator<Value: AnimatableVector>: Sendable {
    /// The deceleration.
    public let decay: Decay
    /// The speed (units per second) below which the motion counts as finished.
    public let restSpeed: Double
    /// Seconds since the release.
    public private(set) var time: Double = 0
    /// Whether the speed has fallen below `restSpeed`; the value then stays at `projectedEnd`.
    public private(set) var isSettled = false
    /// The value at the release.
    public let start: Value
    /// The velocity at the release.
    public let initialVelocity: Value

    /// Creates a flick from `value` at `velocity` (units per second).
    /// - Precondition: every component is finite and `restSpeed` is finite and > 0 (values the
    ///   app computes, not data: the rule of every animator call).
    public init(decay: Decay, value: Value, velocity: Value, restSpeed: Double = 0.01) {
        KinemaError.precondition {
            try KinemaError.requirePositive(restSpeed, "restSpeed")
            try value.requireFinite("value")
            try velocity.requireFinite("velocity")
        }
        self.decay = decay
        self.restSpeed = restSpeed
        start = value
        initialVelocity = velocity
        isSettled = velocity.animatableComponents.lengthSquared <= restSpeed * restSpeed
    }

    /// Where the motion comes to rest: `value + velocity/λ`.
    public var projectedEnd: Value { decay.projectedEnd(from: start, velocity: initialVelocity) }

    /// The value now; `projectedEnd` once settled (it is within `restSpeed/λ` of it then).
    public var value: Value { isSettled ? projectedEnd : value(at: time) }

    /// The value at `time` (seconds since the release) on the decay, without advancing.
    public func value(at time: Double) -> Value { decay.position(from: start, velocity: initialVelocity, after: time) }

    /// The velocity now; zero once settled.
    public var velocity: Value {
        isSettled ? Value(animatableComponents: .zero) : decay.velocity(initialVelocity, after: time)
    }

    /// Advances by one frame of `duration` seconds (zero leaves the motion where it is).
    /// - Returns: `true` on the advance that settles the motion.
    /// - Precondition: `duration` is finite and ≥ 0 (see `SpringAnimator.advance(by:)`).
    @discardableResult
    public mutating func advance(by duration: Double) -> Bool {
        FrameRule.requireDuration(duration)
        return advance(to: time + duration)
    }

    /// Advances to `time` (seconds since the release, not before the current time).
    /// - Returns: `true` on the advance that settles the motion.
    /// - Precondition: `time` is finite and not before the animator's time.
    @discardableResult
    public mutating func advance(to time: Double) -> Bool {
        FrameRule.requireTime(time, from: self.time)
        self.time = time
        if isSettled { return false }
        let speed = velocity.animatableComponents.lengthSquared.squareRoot()
        isSettled = speed <= restSpeed
        return isSettled
    }
}
