import Foundation
import Testing

@testable import Kinema

/// A spring baked into its step and impulse responses, composed as additive offsets, against the
/// oscillator restarted at every retarget with the position and velocity it had there.
@Suite struct RetargetableSpringTests {
    static let springs: [(String, DampedSpring)] = [
        ("SwiftUI bouncy", .bouncy), ("SwiftUI smooth", .smooth),
        ("Android stiffness 1500, ratio 0.2", try! DampedSpring(stiffness: 1500, dampingRatio: 0.2)),
        ("overdamped", try! DampedSpring(response: 0.3, dampingRatio: 2.5))
    ]

    /// A baked curve at `t` seconds (0 before its start, its last value after its end).
    static func played(_ animation: KeyframeAnimation, _ t: Double) -> Double {
        animation.scalarValue(at: min(max(t / animation.duration, 0), 1))
    }

    /// Each response within its stated error of the closed form (the step's at most the
    /// tolerance, the impulse's at most the tolerance of its range), ending exactly where it
    /// settles: 1 and 0, so an ended offset adds nothing.
    @Test(arguments: springs)
    func theResponsesAreTheClosedFormsWithinTheTolerance(_ name: String, _ spring: DampedSpring) throws {
        let baked = try RetargetableSpring(spring: spring, tolerance: 0.001)
        let step = try spring.motion(from: 0, to: 1), impulse = try spring.motion(from: 0, to: 0, initialVelocity: 1)
        #expect(baked.step.animation.values.first == [0] && baked.step.animation.values.last == [1])
        #expect(baked.impulse.animation.values.first == [0] && baked.impulse.animation.values.last == [0])
        var stepWorst = 0.0, impulseWorst = 0.0, peak = 0.0
        for i in 0...4_000 {
            let t = baked.impulse.animation.duration * 1.2 * Double(i) / 4_000
            stepWorst = max(stepWorst, abs(Self.played(baked.step.animation, t) - step.position(at: t)))
            impulseWorst = max(impulseWorst, abs(Self.played(baked.impulse.animation, t) - impulse.position(at: t)))
            peak = max(peak, abs(impulse.position(at: t)))
        }
        #expect(stepWorst <= baked.stepError && baked.stepError <= 0.001, "\(name): \(stepWorst)")
        #expect(
            impulseWorst <= baked.impulseError && baked.impulseError <= 0.001 * 2 * peak, "\(name): \(impulseWorst)")
    }

    /// Toward 300, retargeted to −100, then to 250, then released at −2,000/s: the target plus the
    /// offsets, each started when it happened, is the oscillator restarted at each of those times
    /// from the state it had, within `errorBound` of the moves and the velocity.
    @Test(arguments: springs)
    func offsetsComposeTheRetargetedSpring(_ name: String, _ spring: DampedSpring) throws {
        let baked = try RetargetableSpring(spring: spring)
        // (time, new target, velocity kick)
        let events: [(Double, Double, Double)] = [(0, 300, 0), (0.12, -100, 0), (0.31, 250, 0), (0.45, 250, -2_000)]
        var offsets: [(start: Double, animation: KeyframeAnimation)] = []
        var motion = try spring.motion(from: 0, to: 0), start = 0.0, target = 0.0, worst = 0.0
        var moves: [Double] = [], kicks: [Double] = []
        var next = 0
        for i in 0...3_000 {
            let t = 2.0 * Double(i) / 3_000
            while next < events.count && events[next].0 <= t {
                let (at, to, kick) = events[next]
                let x = motion.position(at: at - start), v = motion.velocity(at: at - start)
                motion = try spring.motion(from: x, to: to, initialVelocity: v + kick)
                start = at
                if to != target { offsets.append((at, try baked.retargetOffset(by: to - target))) }
                if kick != 0 { offsets.append((at, try baked.releaseOffset(velocity: kick))) }
                moves.append(to - target)
                kicks.append(kick)
                target = to
                next += 1
            }
            let shown = offsets.reduce(target) { $0 + Self.played($1.animation, t - $1.start) }
            worst = max(worst, abs(shown - motion.position(at: t - start)))
        }
        let bound = baked.errorBound(moves: moves, velocities: kicks)
        #expect(worst <= bound, "\(name): \(worst) > \(bound)")
        #expect(worst > 0, "the offsets must be baked curves, not the closed form")
        // Ended offsets add exactly 0: after the last one ends the target is shown as it is.
        let end = offsets.map { $0.start + $0.animation.duration }.max()!
        #expect(offsets.reduce(target) { $0 + Self.played($1.animation, end - $1.start) } == target)
    }

    /// The reduced-motion step: from 0 to 1 without overshoot, over the step's duration.
    @Test(arguments: springs)
    func theReducedStepDoesNotOvershoot(_ name: String, _ spring: DampedSpring) throws {
        let baked = try RetargetableSpring(spring: spring)
        let reduced = baked.reducedStep.animation
        #expect(reduced.duration == baked.step.animation.duration)
        #expect(reduced.values.first == [0] && reduced.values.last == [1])
        var previous = -Double.infinity
        for i in 0...2_000 {
            let value = Self.played(reduced, reduced.duration * Double(i) / 2_000)
            #expect(value >= previous - baked.reducedStep.maxError && value <= 1 + 1e-12, "\(name) at \(i)")
            previous = value
        }
    }

    /// A bounce easing's reduced form: its start and end, critically damped, monotone.
    @Test func aBounceReducedEndsWhereItEndsWithoutBouncing() throws {
        let source = try MotionSource(reducedMotionOf: try MotionSource(easing: Easing(name: "bounce-out")))
        #expect(source.value(at: 0) == 0 && source.value(at: 1) == 1)
        for i in 1...1_000 {
            let t = Double(i) / 1_000
            #expect(source.value(at: t) >= source.value(at: t - 0.001) && source.value(at: t) <= 1)
        }
    }

    @Test func badInputIsRefusedNamingTheValue() throws {
        for tolerance in [0, 1, -1, .nan, .infinity] {
            #expect(throws: KinemaError.self) { try RetargetableSpring(spring: .bouncy, tolerance: tolerance) }
        }
        let undamped = try DampedSpring(stiffness: 100, damping: 0)
        let error = #expect(throws: KinemaError.self) { try RetargetableSpring(spring: undamped) }
        #expect(error?.parameter == "damping")
        let baked = try RetargetableSpring(spring: .snappy)
        #expect(throws: KinemaError.self) { try baked.retargetOffset(by: .nan) }
        #expect(throws: KinemaError.self) { try baked.releaseOffset(velocity: .infinity) }
    }
}
