import Kinema
import Testing

/// The per-frame calls of the four animated types: one rule for all (a frame's duration is finite
/// and ≥ 0, a time finite and not before the current one; zero allowed), a precondition rather
/// than an error, as SwiftUI and Foundation treat a frame duration; every type has both
/// `advance(by:)` and `advance(to:)`, and the two agree.
struct FrameContractTests {
    @Test func zeroFramesAndBothFormsAgree() throws {
        var spring = SpringAnimator(spring: .bouncy, value: 0.0, target: 1)
        var springTo = spring
        var decay = DecayAnimator(decay: .normal, value: 0.0, velocity: 800)
        var decayTo = decay
        var bounded = BoundedDecayAnimator(value: 0, velocity: 3000, bounds: 0...500)
        var boundedTo = bounded
        var live = try PhysicsSimulator(scene: .drop(height: 1), method: .rk4(timeStep: 1.0 / 240))
        var liveTo = live
        var t = 0.0
        for frame in [0, 1.0 / 60, 0, 1.0 / 120, 1.0 / 90, 0, 1.0 / 60] {
            t += frame
            spring.advance(by: frame)
            springTo.advance(to: t)
            decay.advance(by: frame)
            decayTo.advance(to: t)
            bounded.advance(by: frame)
            boundedTo.advance(to: t)
            live.advance(by: frame)
            liveTo.advance(to: t)
        }
        #expect(spring.value == springTo.value && spring.velocity == springTo.velocity && spring.time == t)
        #expect(decay.value == decayTo.value && decay.time == t)
        #expect(bounded.value == boundedTo.value && bounded.time == t)
        #expect(live.positions == liveTo.positions && live.time == t && live.failure == nil)
    }

    @Test func aNegativeOrNonFiniteFrameIsAProgrammerError() async {
        await #expect(processExitsWith: .failure) {
            var animator = SpringAnimator(spring: .smooth, value: 0.0, target: 1)
            animator.advance(by: -0.1)
        }
        await #expect(processExitsWith: .failure) {
            var animator = SpringAnimator(spring: .smooth, value: 0.0, target: 1)
            animator.advance(to: 1)
            animator.advance(to: 0.5)
        }
        await #expect(processExitsWith: .failure) {
            var animator = DecayAnimator(decay: .normal, value: 0.0, velocity: 100)
            animator.advance(by: .nan)
        }
        await #expect(processExitsWith: .failure) {
            var animator = BoundedDecayAnimator(value: 0, velocity: 100, bounds: 0...10)
            animator.advance(by: .infinity)
        }
        await #expect(processExitsWith: .failure) {
            var live = try PhysicsSimulator(scene: .drop(height: 1), method: .rk4(timeStep: 0.01))
            live.advance(to: .nan)
        }
        await #expect(processExitsWith: .failure) {
            var live = try PhysicsSimulator(scene: .drop(height: 1), method: .rk4(timeStep: 0.01))
            live.advance(by: -1.0 / 60)
        }
    }
}
