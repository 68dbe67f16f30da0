import Foundation
import Testing

@testable import Kinema

/// Motions baked straight from their closed forms, without a scene or a guessed duration: a
/// spring in its dialects and a drop, each against an independent reference.
@Suite struct ClosedFormSourceTests {
    static let springs: [(String, DampedSpring)] = [
        ("SwiftUI bouncy", .bouncy), ("SwiftUI smooth", .smooth),
        ("critically damped", try! DampedSpring(response: 0.4, dampingRatio: 1)),
        ("overdamped", try! DampedSpring(response: 0.3, dampingRatio: 2.5)),
        ("Android stiffness 200, ratio 0.2", try! DampedSpring(stiffness: 200, dampingRatio: 0.2)),
        ("react-spring tension 170, friction 26", try! DampedSpring(tension: 170, friction: 26))
    ]

    /// It ends exactly on the target at the spring's own settling duration, stays within the
    /// closed form's residual there (≤ 0.001 of the travel) of the oscillator everywhere, and its
    /// bake ends on the target with the fit's error within the tolerance of the oscillator too.
    @Test(arguments: springs)
    func aSpringEndsOnItsTargetWhereItSettles(_ name: String, _ spring: DampedSpring) throws {
        let (start, target, velocity) = (20.0, 300.0, -900.0), travel = 280.0
        let source = try MotionSource(spring: spring, from: start, to: target, initialVelocity: velocity)
        let settling = try spring.settlingDuration(epsilon: 0.001, from: start, to: target, initialVelocity: velocity)
        #expect(source.duration == settling)
        #expect(source.value(at: settling) == target && source.value(at: 0) == start)
        let oscillator = try DampedHarmonicOscillator(
            mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping, target: target,
            initialPosition: start, initialVelocity: velocity)
        #expect(abs(source.velocity(at: 0, fromLeft: false) - velocity) <= 1e-9 * abs(velocity))
        for i in 0...1_000 {
            let t = settling * Double(i) / 1_000
            #expect(
                abs(source.value(at: t) - oscillator.position(at: t)) <= 0.001 * travel + 1e-12 * target, "t = \(t)")
        }
        let fit = try KeyframeBaker.bake(source, tolerance: 0.001)
        #expect(fit.animation.values.last == [target])
        // Played against the oscillator: the fit's 0.001 of the range of values (the baker's
        // travel) plus the residual's 0.001 of the distance to the target.
        let times = (0...2_000).map { settling * Double($0) / 2_000 }
        let positions = times.map(oscillator.position(at:))
        let range = positions.max()! - positions.min()!
        for (t, exact) in zip(times, positions) {
            let played = fit.animation.value(at: t / settling)[0]  // at normalized time, as Core Animation
            #expect(abs(played - exact) <= 0.001 * range + 0.001 * travel + 1e-9, "\(name) t = \(t)")
        }
    }

    /// A flick at UIKit's normal rate: x₀ + v(1 − e^(−λt))/λ, written out here, within 0.001 of the
    /// travel everywhere, ending exactly on x₀ + v/λ after ln(1000)/λ; its bake ends there too.
    @Test(arguments: [(Decay.normal, 2500.0), (Decay.fast, -800.0)])
    func aDecayEndsWhereItRests(_ decay: Decay, _ velocity: Double) throws {
        let source = try MotionSource(decay: decay, from: 100, velocity: velocity)
        let rate = decay.rate, travel = abs(velocity / rate), end = 100 + velocity / rate
        #expect(abs(source.duration - log(1000) / rate) <= 1e-12 * source.duration)
        #expect(source.value(at: source.duration) == end && source.value(at: 0) == 100)
        for i in 0...1_000 {
            let t = source.duration * Double(i) / 1_000
            let exact = 100 + velocity * (1 - exp(-rate * t)) / rate
            #expect(abs(source.value(at: t) - exact) <= 0.001 * travel + 1e-12 * abs(end), "t = \(t)")
        }
        let fit = try KeyframeBaker.bake(source, tolerance: 0.001)
        #expect(fit.maxError <= 0.001 * travel && fit.animation.values.last == [end])
        #expect(throws: KinemaError.self) { try MotionSource(decay: decay, velocity: 0) }
    }

    @Test func anUndampedSpringNeedsADuration() throws {
        let undamped = try DampedSpring(mass: 1, stiffness: 100, damping: 0)
        #expect { try MotionSource(spring: undamped) } throws: { ($0 as? KinemaError)?.parameter == "duration" }
        let given = try MotionSource(spring: undamped, duration: 2)
        #expect(given.duration == 2 && given.value(at: 2) == 1)
    }

    /// The bounces at the geometric series' times, t₀(1 + 2e(1 − eᵏ)/(1 − e)), t₀ = √(2h/g), the
    /// last the one after which a bounce would leave slower than the rest velocity; the heights
    /// are the event-driven simulation's of the same drop (`PhysicsScene.drop`, exact) to 1e-9.
    @Test(arguments: [(1.0, 9.81, 0.5), (2.5, 15.125, 0.8), (0.3, 9.81, 0)])
    func aDropBouncesAtTheSeriesTimesAndRests(_ height: Double, _ gravity: Double, _ e: Double) throws {
        let source = try MotionSource(dropFrom: height, gravity: gravity, restitution: e)
        let t0 = (2 * height / gravity).squareRoot()
        let bounces = e == 0 ? 0 : Int(ceil(log(0.01 / (gravity * t0)) / log(e))) - 1
        let expected = (0...bounces).map { k in k == 0 ? t0 : t0 * (1 + 2 * e * (1 - pow(e, Double(k))) / (1 - e)) }
        #expect(source.breakpoints.count == expected.count - 1)  // the last impact ends the motion
        for (time, exact) in zip(source.breakpoints + [source.duration], expected) {
            #expect(abs(time - exact) <= 1e-12 * max(1, exact))
        }
        #expect(source.value(at: source.duration) == 0)
        let scene = try PhysicsScene.drop(height: height, gravity: gravity, restitution: e)
        let run = try Simulation(scene: scene).run(method: .exact, duration: source.duration, sampleRate: 500)
        for sample in 0..<run.count {
            let t = run.times[sample]
            #expect(abs(source.value(at: t) - run.position(atSample: sample, coordinate: 0)) <= 1e-9, "t = \(t)")
        }
        let fit = try KeyframeBaker.bake(source, tolerance: 0.001)
        #expect(fit.maxError <= 0.001 && fit.animation.values.last == [0])
    }
}
