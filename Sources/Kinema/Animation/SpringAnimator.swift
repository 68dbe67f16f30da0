/// A spring animation an app drives frame by frame, whose target can change at any time.
///
/// Every value is the closed-form motion from the state at the last change (start, retarget or
/// restart), evaluated at the elapsed time: nothing is integrated, so uneven frame durations,
/// dropped frames and any number of retargets add no error and no drift. A retarget keeps the
/// position and the velocity exactly and starts the closed form from them.
/// ```swift
/// var animator = SpringAnimator(spring: .snappy, value: SIMD2(0.0, 0.0), target: SIMD2(100.0, 40.0))
/// animator.advance(by: 1.0 / 120)           // each display frame
/// animator.retarget(to: SIMD2(20.0, 80.0))  // mid-flight: no jump, no kink
/// if animator.advance(by: 1.0 / 120) { /* settled on this frame: completion */ }
/// ```
///
/// Settling is decided by the motion's energy, `‖x − target‖² + ‖v‖²/ω0² ≤ tolerance²`: a damped
/// spring's energy never grows, so once it holds the value stays within `tolerance` of the target
/// for good. The animator then sits exactly on the target with zero velocity.
public struct SpringAnimator<Value: AnimatableVector>: Sendable {
    /// The value's components, as the spring moves them (SIMD lanes, `Double` for a scalar).
    public typealias Components = Value.AnimatableComponents

    /// The spring that moves the value.
    public let spring: DampedSpring
    /// The distance from the target (in the value's units) at which the motion counts as settled.
    public let tolerance: Double
    /// Seconds since the animator started (the sum of every `advance`).
    public private(set) var time: Double = 0
    /// Whether the motion has settled on `target` (see the type's discussion).
    public private(set) var isSettled = false

    @usableFromInline var goal: Components
    /// The state the current closed-form motion starts from, at `origin`.
    @usableFromInline var origin: Double = 0
    @usableFromInline var startDisplacement: Components
    @usableFromInline var startVelocity: Components

    /// Creates an animator at `value` moving with `velocity` (units per second) towards `target`.
    /// - Precondition: every component is finite and `tolerance` is finite and > 0 (values the
    ///   app computes, not data: the rule of every animator call).
    public init(
        spring: DampedSpring, value: Value, velocity: Value = Value(animatableComponents: .zero),
        target: Value, tolerance: Double = 0.001
    ) {
        KinemaError.precondition {
            try KinemaError.requirePositive(tolerance, "tolerance")
            try value.requireFinite("value")
            try velocity.requireFinite("velocity")
            try target.requireFinite("target")
        }
        self.spring = spring
        self.tolerance = tolerance
        goal = target.animatableComponents
        startDisplacement = .zero
        startVelocity = .zero
        start(displacement: value.animatableComponents - goal, velocity: velocity.animatableComponents)
    }

    /// The target the value moves towards.
    public var target: Value { Value(animatableComponents: goal) }

    /// The value now (at `time`).
    public var value: Value { value(at: time) }

    /// The velocity now (at `time`), in units per second.
    public var velocity: Value { velocity(at: time) }

    /// The value at `time` (seconds since the start) on the current motion, without advancing:
    /// for sub-frame sampling or to look ahead. Exact for any time at or after the last change.
    @inlinable
    public func value(at time: Double) -> Value {
        Value(animatableComponents: goal + state(at: time).displacement)
    }

    /// The velocity at `time` on the current motion, without advancing.
    @inlinable
    public func velocity(at time: Double) -> Value {
        Value(animatableComponents: state(at: time).velocity)
    }

    /// Displacement from the target and velocity at `time`: the closed form from the last change.
    @inlinable
    func state(at time: Double) -> (displacement: Components, velocity: Components) {
        DampedSpring.Propagator(spring, after: time - origin).apply(
            displacement: startDisplacement, velocity: startVelocity)
    }

    /// Advances by one frame of `duration` seconds (zero leaves the motion where it is).
    /// - Returns: `true` on the advance that settles the motion (once per settle: the completion).
    /// - Precondition: `duration` is finite and ≥ 0. A frame's duration comes from the display
    ///   link, not from data: as in SwiftUI and Foundation, a negative or non-finite one is a
    ///   programmer error, not an error to handle on every frame (the rule of every `advance`).
    @discardableResult
    public mutating func advance(by duration: Double) -> Bool {
        FrameRule.requireDuration(duration)
        return advance(to: time + duration)
    }

    /// Advances to `time` (seconds since the start, not before the current time).
    /// - Returns: `true` on the advance that settles the motion.
    /// - Precondition: `time` is finite and not before the animator's time.
    @discardableResult
    public mutating func advance(to time: Double) -> Bool {
        FrameRule.requireTime(time, from: self.time)
        self.time = time
        if isSettled { return false }
        // The motion itself stays anchored at its last change (no per-frame feedback); only the
        // settling test looks at the state now.
        let now = state(at: time)
        if isWithinTolerance(displacement: now.displacement, velocity: now.velocity) {
            start(displacement: .zero, velocity: .zero)
        }
        return isSettled
    }

    /// Moves towards `newTarget` from the animator's time on (the last `advance`), keeping the
    /// position and velocity it has then. An app that advances on its own clock and may have
    /// stopped advancing (a drag, a paused view) says when with `retarget(to:at:)`.
    /// - Precondition: every component of `newTarget` is finite.
    public mutating func retarget(to newTarget: Value) {
        KinemaError.precondition { try newTarget.requireFinite("target") }
        let now = state(at: time)
        let position = goal + now.displacement
        goal = newTarget.animatableComponents
        start(displacement: position - goal, velocity: now.velocity)
    }

    /// Moves towards `newTarget` from `time` (seconds since the start, on the clock `advance(to:)`
    /// takes) on, keeping the position and velocity the motion has at `time`: the animator first
    /// advances to `time`.
    /// - Precondition: every component of `newTarget` is finite, and `time` is finite and not
    ///   before the animator's time (as for `advance(to:)`).
    public mutating func retarget(to newTarget: Value, at time: Double) {
        FrameRule.requireTime(time, from: self.time, in: "retarget(to:at:)")
        advance(to: time)
        retarget(to: newTarget)
    }

    /// Starts again from `value` with `velocity`, towards the same target, at the animator's time
    /// (the last `advance`): a gesture's hand-off. An app that stopped advancing while the finger
    /// was down says when the finger lifted with `restart(from:velocity:at:)`; otherwise the
    /// first frame after the release plays the motion from the last advance, a jump of the time
    /// the drag lasted.
    /// - Precondition: every component is finite.
    public mutating func restart(from value: Value, velocity: Value) {
        KinemaError.precondition {
            try value.requireFinite("value")
            try velocity.requireFinite("velocity")
        }
        start(displacement: value.animatableComponents - goal, velocity: velocity.animatableComponents)
    }

    /// Starts again from `value` with `velocity` at `time` (seconds since the start, on the clock
    /// `advance(to:)` takes), towards the same target: the finger lifts at `time` with the view
    /// at `value`, moving at `velocity`, and the next frame continues from there.
    /// - Precondition: every component is finite, and `time` is finite and not before the
    ///   animator's time (as for `advance(to:)`).
    public mutating func restart(from value: Value, velocity: Value, at time: Double) {
        FrameRule.requireTime(time, from: self.time, in: "restart(from:velocity:at:)")
        self.time = time
        restart(from: value, velocity: velocity)
    }

    /// Anchors the closed form at the current time on this state (exact: the state handed over is
    /// the one the closed form gives now); within the tolerance it sits on the target instead.
    mutating func start(displacement: Components, velocity: Components) {
        origin = time
        isSettled = isWithinTolerance(displacement: displacement, velocity: velocity)
        startDisplacement = isSettled ? .zero : displacement
        startVelocity = isSettled ? .zero : velocity
    }

    func isWithinTolerance(displacement: Components, velocity: Components) -> Bool {
        let omegaSquared = spring.stiffness / spring.mass
        return displacement.lengthSquared + velocity.lengthSquared / omegaSquared <= tolerance * tolerance
    }
}
