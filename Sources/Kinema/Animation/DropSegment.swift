/// The motion of a SwiftUI custom drop animation since its last start or merge: the value falls
/// onto its target as a ball onto a floor and bounces, each bounce `restitution` times as fast as
/// the impact before it, until a bounce would rise less than `tolerance` of the fall.
///
/// The fall runs along the offset from the target at the segment's start, in fractions of it:
/// height 1 there, 0 on the target, under the gravity that brings it down from rest in `duration`
/// (2/duration² per second²). A merge starts a new fall from the offset shown, keeping the
/// velocity's component along the new fall (the component across it has no floor to bounce on and
/// is dropped).
struct DropSegment<V: AnimationArithmetic> {
    var start = 0.0
    var offset = V.zero
    /// The velocity along the fall at `start`, in fractions of the fall per second (> 0: away from
    /// the target).
    var rising = 0.0
    /// The drop that runs the segment and its target (nil: not yet run).
    var drop: DropMotion?
    var target = V.zero

    /// The offset and velocity at `time`, nil once the value rests on `target`.
    func state(under drop: DropMotion, toward target: V, at time: Double) -> (offset: V, velocity: V)? {
        let fall = offset - target
        guard fall.magnitudeSquared > 0,
            let (height, speed) = Self.flight(drop, rising: rising, after: max(time - start, 0))
        else {
            return nil
        }
        return (target + fall.scaled(by: height), fall.scaled(by: speed))
    }

    /// Height and velocity along the fall after `t`, from height 1 leaving at `rising`: a parabola
    /// to the first impact, then one per bounce, each leaving `restitution` times as fast as it
    /// landed; nil from the landing whose bounce would rise less than the tolerance.
    static func flight(_ drop: DropMotion, rising: Double, after t: Double) -> (height: Double, velocity: Double)? {
        let g = drop.gravity
        let landing = (rising * rising + 2 * g).squareRoot()  // speed at the first impact
        var impact = (rising + landing) / g
        if t < impact { return (1 + rising * t - g * t * t / 2, rising - g * t) }
        // A bounce leaving at w rises w²/2g: it counts while that is at least the tolerance.
        let restSpeed = (2 * g * drop.tolerance).squareRoot()
        var leaving = landing * drop.restitution
        while leaving >= restSpeed {
            let flight = 2 * leaving / g
            if t < impact + flight {
                let s = t - impact
                return (leaving * s - g * s * s / 2, leaving - g * s)
            }
            impact += flight
            leaving *= drop.restitution
        }
        return nil
    }

    /// Whether the value has reached its target (SwiftUI's `isLogicallyComplete`): from the first
    /// landing on, while the bounces still play.
    func isLogicallyComplete(at time: Double) -> Bool {
        guard let drop else { return false }
        let landing = (rising * rising + 2 * drop.gravity).squareRoot()
        return time - start >= (rising + landing) / drop.gravity
    }

    mutating func animate(_ drop: DropMotion, value: V, time: Double) -> V? {
        self.drop = drop
        target = value
        return state(under: drop, toward: value, at: time)?.offset
    }

    func velocity(_ drop: DropMotion, value: V, time: Double) -> V? {
        state(under: drop, toward: value, at: time)?.velocity
    }

    /// A new drop takes over at `time`: it falls from the offset shown towards `value`.
    mutating func merge(under drop: DropMotion, toward value: V, at time: Double) {
        var velocity = V.zero
        if let previous = self.drop {
            (offset, velocity) = state(under: previous, toward: target, at: time) ?? (target, .zero)
        }
        let fall = offset - value, length = fall.magnitudeSquared
        rising = length > 0 ? velocity.dot(fall) / length : 0
        start = time
        self.drop = drop
        target = value
    }
}

/// A drop's constants: the time of a fall from rest, the restitution, the rest fraction.
struct DropMotion: Hashable, Sendable {
    let duration: Double, restitution: Double, tolerance: Double
    var gravity: Double { 2 / (duration * duration) }
}
