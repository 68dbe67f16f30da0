import RealModule

/// Exponential deceleration, the motion of a flick: `v(t) = v0·e^(−λt)`, so
/// ```
/// x(t) = x0 + v0·(1 − e^(−λt))/λ      and the projected end point   x(∞) = x0 + v0/λ
/// ```
/// In every dialect that apps use: UIKit's `UIScrollView.decelerationRate` (the fraction of the
/// velocity left after each millisecond: `.normal` 0.998, `.fast` 0.99; λ = −1000·ln r) and
/// Android's `FlingAnimation` friction (λ = 4.2·friction, as its `DragForce` defines it).
///
/// UIKit's per-millisecond factor is reproduced exactly at every millisecond. The end point is the
/// integral of that velocity, `v0/(1000·(−ln r))`; the projection Apple's "Designing Fluid
/// Interfaces" (WWDC 2018) sums per millisecond instead, `v0/1000 · r/(1 − r)`, is 0.1 % shorter
/// at `.normal` and 0.5 % at `.fast`.
public struct Decay: Hashable, Sendable {
    /// The decay rate λ (1/s).
    public let rate: Double

    /// Creates a decay of rate λ (1/s).
    /// - Throws: `KinemaError` unless `rate` is finite and > 0.
    public init(rate: Double) throws {
        try KinemaError.requirePositive(rate, "rate")
        self.rate = rate
    }

    /// Creates UIKit's decay: `decelerationRate` is the fraction of the velocity left after each
    /// millisecond (`UIScrollView.DecelerationRate.normal` is 0.998, `.fast` 0.99).
    /// - Throws: `KinemaError` unless `decelerationRate` is in (0, 1).
    public init(decelerationRate: Double) throws {
        guard decelerationRate.isFinite, decelerationRate > 0, decelerationRate < 1 else {
            throw KinemaError(parameter: "decelerationRate", value: "\(decelerationRate)", rule: "a number in (0, 1)")
        }
        rate = -1000 * Double.log(decelerationRate)
    }

    /// Creates Android's `FlingAnimation` decay of `friction` (its `setFriction`; 1 is the default).
    /// - Throws: `KinemaError` unless `friction` is finite and > 0.
    public init(friction: Double) throws {
        try KinemaError.requirePositive(friction, "friction")
        rate = 4.2 * friction
    }

    init(validatedRate rate: Double) { self.rate = rate }

    /// `UIScrollView.DecelerationRate.normal`: 0.998 per millisecond.
    public static let normal = Decay(validatedRate: -1000 * Double.log(0.998))
    /// `UIScrollView.DecelerationRate.fast`: 0.99 per millisecond.
    public static let fast = Decay(validatedRate: -1000 * Double.log(0.99))

    /// UIKit's dialect: the fraction of the velocity left after one millisecond.
    public var decelerationRate: Double { Double.exp(-rate / 1000) }
    /// Android's dialect: the `FlingAnimation` friction.
    public var friction: Double { rate / 4.2 }

    /// The position after `time` seconds from `start` at `velocity`.
    @inlinable
    public func position<V: AnimatableVector>(from start: V, velocity: V, after time: Double) -> V {
        // (1 − e^(−λt))/λ through expm1, exact to rounding for small λt.
        let travelled = -Double.expMinusOne(-rate * time) / rate
        return V(animatableComponents: start.animatableComponents + travelled * velocity.animatableComponents)
    }

    /// The velocity after `time` seconds from `velocity`.
    @inlinable
    public func velocity<V: AnimatableVector>(_ velocity: V, after time: Double) -> V {
        V(animatableComponents: Double.exp(-rate * time) * velocity.animatableComponents)
    }

    /// Where the motion from `start` at `velocity` comes to rest: `start + velocity/λ`
    /// (the velocity projection apps use to pick a snap point when a gesture ends).
    @inlinable
    public func projectedEnd<V: AnimatableVector>(from start: V, velocity: V) -> V {
        V(animatableComponents: start.animatableComponents + (1 / rate) * velocity.animatableComponents)
    }

    /// When a one-dimensional motion from `start` at `velocity` reaches `position`, or `nil` if
    /// it never does (behind it, or beyond its projected end):
    /// `t = −ln(1 − λ(position − start)/velocity)/λ`.
    public func time(toReach position: Double, from start: Double, velocity: Double) -> Double? {
        let distance = position - start
        if distance == 0 { return 0 }
        guard velocity != 0, distance.sign == velocity.sign else { return nil }
        let fraction = -rate * distance / velocity  // e^(−λt) − 1, in (−1, 0) when reachable
        guard fraction > -1 else { return nil }
        return -Double.log(onePlus: fraction) / rate
    }
}
