#if canImport(SwiftUI)
    import SwiftUI

    /// A SwiftUI animation that moves a value as a ``DampedSpring`` does, in any of its dialects,
    /// from the closed form (nothing is integrated: any frame rate plays the same curve).
    ///
    /// A change made while it runs merges: the new animation starts from the value and the velocity
    /// shown at that moment, so a card sent somewhere else mid-flight, or released by a gesture,
    /// turns without a jump or a kink, as SwiftUI's own springs do.
    /// ```swift
    /// withAnimation(.kinema(try DampedSpring(response: 0.4, dampingRatio: 0.6))) { offset = 300 }
    /// withAnimation(.kinema(.bouncy)) { offset = 0 }   // mid-flight: keeps its velocity
    /// ```
    /// It ends (the value sits on its target) once the motion's energy,
    /// `‖x − target‖² + ‖v‖²/ω0²`, is within `tolerance`² of the energy it set out with: the value
    /// is then within `tolerance` of the distance it moved, and never leaves that band again. It is
    /// logically complete (`withAnimation`'s `.logicallyComplete` completion runs) once within 1 %.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    public struct SpringCustomAnimation: CustomAnimation, Sendable {
        /// The spring that moves the value.
        public let spring: DampedSpring
        /// The fraction of the distance moved within which the motion ends.
        public let tolerance: Double

        /// - Precondition: `tolerance` is finite and > 0 (a constant of the app, not data).
        public init(_ spring: DampedSpring, tolerance: Double = 0.001) {
            precondition(tolerance.isFinite && tolerance > 0, "tolerance \(tolerance) must be finite and > 0")
            self.spring = spring
            self.tolerance = tolerance
        }

        public func animate<V: VectorArithmetic>(value: V, time: TimeInterval, context: inout AnimationContext<V>)
            -> V?
        {
            let offset = context.springSegment.animate(
                spring, tolerance: tolerance, value: SwiftUIVector(value: value), time: time)
            if context.springSegment.isLogicallyComplete(tolerance: tolerance, at: time) {
                context.isLogicallyComplete = true
            }
            return offset?.value
        }

        public func velocity<V: VectorArithmetic>(value: V, time: TimeInterval, context: AnimationContext<V>) -> V? {
            context.springSegment.velocity(
                spring, tolerance: tolerance, value: SwiftUIVector(value: value), time: time)?
                .value
        }

        /// Always merges, taking over the position and velocity shown at `time`.
        public func shouldMerge<V: VectorArithmetic>(
            previous: Animation, value: V, time: TimeInterval, context: inout AnimationContext<V>
        ) -> Bool {
            context.springSegment.merge(under: spring, toward: SwiftUIVector(value: value), at: time)
            return true
        }
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    extension Animation {
        /// An animation that moves a value as `spring` does (``SpringCustomAnimation``); a change
        /// while it runs keeps the velocity.
        public static func kinema(_ spring: DampedSpring, tolerance: Double = 0.001) -> Animation {
            Animation(SpringCustomAnimation(spring, tolerance: tolerance))
        }
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    private struct SpringSegmentKey<V: VectorArithmetic>: AnimationStateKey {
        static var defaultValue: SpringSegment<SwiftUIVector<V>> { SpringSegment() }
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    extension AnimationContext {
        fileprivate var springSegment: SpringSegment<SwiftUIVector<Value>> {
            get { state[SpringSegmentKey<Value>.self] }
            set { state[SpringSegmentKey<Value>.self] = newValue }
        }
    }
#endif
