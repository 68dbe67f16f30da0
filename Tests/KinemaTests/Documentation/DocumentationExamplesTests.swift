import Foundation
import Kinema
import Testing

/// The code in the DocC articles, run as written and checked against closed forms, so the articles
/// cannot drift from the library.
@Suite struct DocumentationExamplesTests {
    @Test func overviewBakesASimulatedSwiftUISpringWithinTheTolerance() throws {
        let spring = try DampedSpring(duration: 0.5, bounce: 0.3)
        let scene = try PhysicsScene.spring(spring, from: 0, to: 1)
        let trajectory = try Simulation(scene: scene).run(method: .dop853(tolerance: 1e-12), duration: 1.5)
        let fit = try KeyframeBaker.bake(try MotionSource(trajectory: trajectory), tolerance: 0.001)
        #expect(KeyframeExport.css(fit).contains("@keyframes"))

        // Against the analytic spring (travel 1, overshoot included: the tolerance is of the travel).
        let motion = try spring.motion(from: 0, to: 1)
        for t in grid(0, 1.5, count: 3001) {
            #expect(abs(fit.animation.scalarValue(at: t / 1.5) - motion.position(at: t)) <= 0.001)
        }
    }

    @Test func choosingAnIntegratorRunsItsExamplesToTheirAccuracy() throws {
        let spring = try DampedSpring(stiffness: 1000, dampingRatio: 0.1)
        let scene = try PhysicsScene.spring(spring)
        let simulation = Simulation(scene: scene)
        let accurate = try simulation.run(method: .dop853(tolerance: 1e-12), duration: 2, sampleRate: 1000)
        let cheap = try simulation.run(method: .rk4(timeStep: 1.0 / 600), duration: 2)
        let multistep = try simulation.run(method: .adams(timeStep: 1.0 / 180, order: 10), duration: 2)
        let motion = try spring.motion()
        let multistepError = (0..<multistep.count).map {
            abs(multistep.position(atSample: $0) - motion.position(at: multistep.times[$0]))
        }.max()!
        #expect(multistepError <= 5.0e-10 * 1.01 && multistep.steps == 360)
        let accurateError = (0..<accurate.count).map {
            abs(accurate.position(atSample: $0) - motion.position(at: accurate.times[$0]))
        }.max()!
        let cheapError = (0..<cheap.count).map {
            abs(cheap.position(atSample: $0) - motion.position(at: cheap.times[$0]))
        }.max()!
        #expect(accurateError <= 1e-10)
        // RK4's global error ~ C·(ωh)⁴; at ωh = 0.053 it is of order 1e-5 of the travel.
        #expect(cheapError <= 1e-4)
        #expect(accurate.steps < cheap.steps)
    }

    @Test func theBounceIdentityHoldsAsTheArticleStatesIt() throws {
        let ball = try PhysicsScene.drop(height: 1, gravity: 121.0 / 8, restitution: 0.5)
        let trajectory = try Simulation(scene: ball).run(
            method: .dop853(tolerance: 1e-13), duration: 1, sampleRate: 1000)
        let bounce = PennerEasing(.bounce, .out)
        for i in 0..<trajectory.count {
            #expect(abs((1 - trajectory.position(atSample: i)) - bounce.value(at: trajectory.times[i])) <= 1e-12)
        }
        let impacts = trajectory.events.map(\.time).prefix(3)
        for (time, expected) in zip(impacts, [4.0 / 11, 8.0 / 11, 10.0 / 11]) {
            #expect(abs(time - expected) <= 1e-12)
        }
    }

    @Test func animatingInAnAppRunsAsWritten() throws {
        let spring = try DampedSpring(duration: 0.5, bounce: 0.3)  // or .smooth, .snappy, .bouncy
        let x = spring.value(target: 100.0, initialVelocity: 250.0, time: 0.2)
        let v = spring.velocity(target: 100.0, initialVelocity: 250.0, time: 0.2)
        var position = 0.0, velocity = 0.0
        spring.update(value: &position, velocity: &velocity, target: 100.0, deltaTime: 1.0 / 120)
        let motion = try spring.motion(from: 0, to: 100, initialVelocity: 250)
        #expect(abs(x - motion.position(at: 0.2)) <= 1e-10 && abs(v - motion.velocity(at: 0.2)) <= 1e-9)
        let still = try spring.motion(from: 0, to: 100)
        #expect(
            abs(position - still.position(at: 1.0 / 120)) <= 1e-12
                && abs(velocity - still.velocity(at: 1.0 / 120)) <= 1e-10)

        var card = try SpringAnimator(spring: .bouncy, value: SIMD2(0.0, 0.0), target: SIMD2(0.0, 0.0))
        try card.restart(from: SIMD2(140, -30), velocity: SIMD2(900, 250))  // the finger lifts here
        card.advance(by: 1.0 / 120)
        let alongX = try DampedSpring.bouncy.motion(from: 140, to: 0, initialVelocity: 900)
        #expect(abs(card.value.x - alongX.position(at: 1.0 / 120)) <= 1e-10)
    }
}
