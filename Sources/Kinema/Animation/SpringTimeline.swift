#if canImport(Foundation)
    import Foundation

    /// A spring read at the dates a display clock gives — SwiftUI's `TimelineView(.animation)`,
    /// a display link's timestamp — instead of advanced frame by frame.
    ///
    /// Reading is a pure function of the date (the closed form from the last change), so a view's
    /// body can read it without mutating anything, any number of times per frame. Changes take
    /// the date they happen at: a gesture's `DragGesture.Value.time`, or `.now`.
    /// ```swift
    /// @State private var card = SpringTimeline(spring: .bouncy, value: CGPoint.zero)
    ///
    /// TimelineView(.animation) { context in
    ///     CardView().offset(x: card.value(at: context.date).x, y: card.value(at: context.date).y)
    /// }
    /// .gesture(DragGesture()
    ///     .onChanged { drag in card.drag(by: CGPoint(x: drag.translation.width, y: drag.translation.height), date: drag.time) }
    ///     .onEnded { drag in card.release(velocity: CGPoint(x: drag.velocity.width, y: drag.velocity.height), date: drag.time) })
    /// ```
    /// A change dated before the last one (clocks that disagree by a frame) acts at the last one,
    /// and a date before the last change reads the state there, so dates in any order never
    /// rewind the motion.
    public struct SpringTimeline<Value: AnimatableVector>: Sendable {
        /// The motion, on the clock of seconds since `start`.
        public private(set) var animator: SpringAnimator<Value>
        /// The date the animator's clock counts from.
        public let start: Date
        /// Where a finger holds the value, while it does (`hold(at:date:)`, `drag(by:date:)`).
        public private(set) var heldValue: Value?
        /// Where the finger caught the value, while a drag holds it.
        private var caughtValue: Value?

        /// A spring at `value`, moving with `velocity` towards `target` (the value itself unless
        /// given) from `date` on.
        /// - Precondition: every component is finite, `tolerance` finite and > 0 (values the app
        ///   computes: the rule of every animator call).
        public init(
            spring: DampedSpring, value: Value, velocity: Value = Value(animatableComponents: .zero),
            target: Value? = nil, tolerance: Double = 0.001, at date: Date = Date()
        ) {
            animator = SpringAnimator(
                spring: spring, value: value, velocity: velocity, target: target ?? value, tolerance: tolerance)
            start = date
        }

        /// The target the value moves towards.
        public var target: Value { animator.target }

        /// The value shown at `date`: where the finger holds it, the spring's closed form, or
        /// exactly the target once settled.
        public func value(at date: Date) -> Value {
            if let heldValue { return heldValue }
            return isSettled(at: date) ? animator.target : animator.value(at: seconds(date))
        }

        /// The velocity at `date` (zero while held, the finger's being the gesture's, and once settled).
        public func velocity(at date: Date) -> Value {
            heldValue != nil || isSettled(at: date)
                ? Value(animatableComponents: .zero) : animator.velocity(at: seconds(date))
        }

        /// Whether the motion has settled on its target by `date`: its energy is within the
        /// tolerance, and a damped spring's energy never grows, so it stays settled. A
        /// `TimelineView` can pause on it.
        public func isSettled(at date: Date) -> Bool {
            guard heldValue == nil else { return false }
            let now = animator.state(at: seconds(date))
            return animator.isSettled
                || animator.isWithinTolerance(displacement: now.displacement, velocity: now.velocity)
        }

        /// Sends the value towards `newTarget` from `date` on, with the position and velocity it
        /// has then (while held, the release takes it there).
        public mutating func retarget(to newTarget: Value, at date: Date) {
            animator.retarget(to: newTarget, at: seconds(date))
        }

        /// A finger holds the value at `value` from `date` on: it shows there, not on the spring.
        public mutating func hold(at value: Value, date: Date) {
            KinemaError.precondition { try value.requireFinite("held value") }
            animator.restart(from: value, velocity: Value(animatableComponents: .zero), at: seconds(date))
            heldValue = value
        }

        /// The finger has moved `translation` since it touched down (a drag gesture's translation):
        /// the first call catches the value where it is shown at `date`, and each holds it there
        /// plus the translation.
        public mutating func drag(by translation: Value, date: Date) {
            let caught = caughtValue ?? value(at: date)
            hold(
                at: Value(animatableComponents: caught.animatableComponents + translation.animatableComponents),
                date: date)
            caughtValue = caught
        }

        /// The finger lifts at `date`, moving at `velocity` (units per second): the spring takes
        /// over from where it holds the value (or from the value shown, if it held nothing).
        public mutating func release(velocity: Value, date: Date) {
            let time = seconds(date)
            animator.restart(from: heldValue ?? animator.value(at: time), velocity: velocity, at: time)
            heldValue = nil
            caughtValue = nil
        }

        /// Seconds since `start` on the animator's clock, never before its last change.
        private func seconds(_ date: Date) -> Double {
            max(date.timeIntervalSince(start), animator.time)
        }
    }
#endif
