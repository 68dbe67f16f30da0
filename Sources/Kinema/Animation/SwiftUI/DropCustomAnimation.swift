#if canImport(SwiftUI)
    import SwiftUI

    /// A SwiftUI animation that drops a value onto its target as a ball onto a floor: it falls,
    /// bounces with `restitution`, and comes to rest on the target, from the closed form (each
    /// flight a parabola, each bounce `restitution` times as fast as the impact).
    ///
    /// A fall from rest takes `duration`, whatever the distance (the gravity is 2/duration² of
    /// the distance per second²). A change while it runs merges: a new fall starts from the value
    /// shown, keeping the velocity along it. It is logically complete (`withAnimation`'s
    /// `.logicallyComplete` completion runs) at the first landing, while the bounces still play.
    /// ```swift
    /// withAnimation(.drop(duration: 0.4, restitution: 0.5)) { badgeOffset = 0 }
    /// ```
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    public struct DropCustomAnimation: CustomAnimation, Sendable {
        let drop: DropMotion

        /// The time a fall from rest takes to reach the target.
        public var duration: Double { drop.duration }
        /// The ratio of each bounce's speed to the impact's.
        public var restitution: Double { drop.restitution }
        /// The fraction of the fall below which a bounce ends the animation on the target.
        public var tolerance: Double { drop.tolerance }

        /// - Precondition: `duration` and `tolerance` are finite and > 0, `restitution` is in
        ///   [0, 1) (an elastic ball never rests): constants of the app, not data.
        public init(duration: Double, restitution: Double = 0.5, tolerance: Double = 0.001) {
            precondition(duration.isFinite && duration > 0, "duration \(duration) must be finite and > 0")
            precondition(restitution >= 0 && restitution < 1, "restitution \(restitution) must be in [0, 1)")
            precondition(tolerance.isFinite && tolerance > 0, "tolerance \(tolerance) must be finite and > 0")
            drop = .init(duration: duration, restitution: restitution, tolerance: tolerance)
        }

        public func animate<V: VectorArithmetic>(value: V, time: TimeInterval, context: inout AnimationContext<V>)
            -> V?
        {
            let offset = context.dropSegment.animate(drop, value: SwiftUIVector(value: value), time: time)
            if context.dropSegment.isLogicallyComplete(at: time) { context.isLogicallyComplete = true }
            return offset?.value
        }

        public func velocity<V: VectorArithmetic>(value: V, time: TimeInterval, context: AnimationContext<V>) -> V? {
            context.dropSegment.velocity(drop, value: SwiftUIVector(value: value), time: time)?.value
        }

        /// Always merges: a new fall from the value and velocity shown at `time`.
        public func shouldMerge<V: VectorArithmetic>(
            previous: Animation, value: V, time: TimeInterval, context: inout AnimationContext<V>
        ) -> Bool {
            context.dropSegment.merge(under: drop, toward: SwiftUIVector(value: value), at: time)
            return true
        }
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    extension Animation {
        /// An animation that drops a value onto its target and bounces (``DropCustomAnimation``).
        public static func drop(duration: Double, restitution: Double = 0.5, tolerance: Double = 0.001) -> Animation {
            Animation(DropCustomAnimation(duration: duration, restitution: restitution, tolerance: tolerance))
        }
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    private struct DropSegmentKey<V: VectorArithmetic>: AnimationStateKey {
        static var defaultValue: DropSegment<SwiftUIVector<V>> { DropSegment() }
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    extension AnimationContext {
        fileprivate var dropSegment: DropSegment<SwiftUIVector<Value>> {
            get { state[DropSegmentKey<Value>.self] }
            set { state[DropSegmentKey<Value>.self] = newValue }
        }
    }
#endif
