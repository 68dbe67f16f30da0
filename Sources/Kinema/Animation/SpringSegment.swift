/// The motion of a SwiftUI custom spring animation since its last start or merge: the offset and
/// velocity it had then, at `start` (seconds on the animation's clock), and the spring and target it
/// has moved under since. Offsets are measured from where the first animation started, as SwiftUI
/// measures them, so a merge hands the next animation exactly the position and velocity shown.
struct SpringSegment<V: AnimationArithmetic> {
    var start = 0.0
    var offset = V.zero
    var velocity = V.zero
    /// What the segment moves under, set by the animation that runs it (nil: not yet run).
    var spring: DampedSpring?
    var target = V.zero

    /// The offset and velocity at `time`, moving under `spring` towards `target`: the closed form
    /// from the segment's start, exact for any time.
    func state(under spring: DampedSpring, toward target: V, at time: Double) -> (offset: V, velocity: V) {
        let p = DampedSpring.Propagator(spring, after: max(time - start, 0))
        let displacement = offset - target
        return (
            target + displacement.scaled(by: p.p) + velocity.scaled(by: p.q),
            displacement.scaled(by: p.r) + velocity.scaled(by: p.s)
        )
    }

    /// The value of `animate(value:time:context:)`: the offset at `time`, nil once the motion is
    /// within `tolerance` of the distance the segment set out to cover (its energy at the start,
    /// `‖x − target‖² + ‖v‖²/ω0²`, which a damped spring's never exceeds again).
    mutating func animate(_ spring: DampedSpring, tolerance: Double, value: V, time: Double) -> V? {
        self.spring = spring
        target = value
        let now = state(under: spring, toward: value, at: time)
        return isSettled(now, under: spring, tolerance: tolerance) ? nil : now.offset
    }

    /// The value of `velocity(value:time:context:)`: nil once settled, as `animate` decides.
    func velocity(_ spring: DampedSpring, tolerance: Double, value: V, time: Double) -> V? {
        let now = state(under: spring, toward: value, at: time)
        return isSettled(now, under: spring, tolerance: tolerance) ? nil : now.velocity
    }

    /// A new animation takes over at `time` (SwiftUI's `shouldMerge`): the segment starts again
    /// from where the one running has brought it, with its velocity, under `spring` towards `value`.
    mutating func merge(under spring: DampedSpring, toward value: V, at time: Double) {
        if let previous = self.spring {
            (offset, velocity) = state(under: previous, toward: target, at: time)
        }
        start = time
        self.spring = spring
        target = value
    }

    /// Whether the motion has reached its target as far as the eye goes (SwiftUI's
    /// `isLogicallyComplete`, which runs `withAnimation`'s `.logicallyComplete` completion): its
    /// energy within 1 % of the distance set out on (or `tolerance`, when that is wider), so that the
    /// value stays within that band of the target for good.
    func isLogicallyComplete(tolerance: Double, at time: Double) -> Bool {
        guard let spring else { return false }
        return isSettled(state(under: spring, toward: target, at: time), under: spring, tolerance: max(tolerance, 0.01))
    }

    private func isSettled(_ now: (offset: V, velocity: V), under spring: DampedSpring, tolerance: Double) -> Bool {
        let omegaSquared = spring.stiffness / spring.mass
        func energy(_ displacement: V, _ velocity: V) -> Double {
            displacement.magnitudeSquared + velocity.magnitudeSquared / omegaSquared
        }
        let travel = energy(offset - target, velocity)
        return energy(now.offset - target, now.velocity) <= tolerance * tolerance * travel
    }
}
