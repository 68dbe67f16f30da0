import Foundation
import Kinema
import KinemaTestSupport
import Testing

#if canImport(QuartzCore)
    import QuartzCore
#endif

/// The snippets of docs/library.md and the README, verbatim, each run and checked against a
/// closed form; the last test fails when the documents and this file disagree, so they cannot show
/// code that does not compile.
@Suite struct LibraryExamplesTests {
    @Test func springValueAndVelocity() throws {
        let spring = try DampedSpring(duration: 0.5, bounce: 0.3)  // or .smooth, .snappy, .bouncy
        let x = spring.value(target: 100.0, initialVelocity: 250.0, time: 0.2)
        let v = spring.velocity(target: 100.0, initialVelocity: 250.0, time: 0.2)
        let settle = spring.settlingDuration  // within 0.001 of the travel after this
        let same = try DampedSpring(settlingDuration: settle, dampingRatio: spring.dampingRatio)
        let motion = try spring.motion(from: 0, to: 100, initialVelocity: 250)
        #expect(abs(x - motion.position(at: 0.2)) <= 1e-12 * 100 && abs(v - motion.velocity(at: 0.2)) <= 1e-12 * 1000)
        #expect(abs(same.stiffness - spring.stiffness) <= 1e-9 * spring.stiffness)
    }

    @Test func frameByFrameWithRetarget() throws {
        var animator = SpringAnimator(spring: .snappy, value: 0.0, target: 100.0)
        for frameDuration in [1.0 / 120, 1.0 / 120, 1.0 / 60] {  // as the display link reports them
            animator.advance(by: frameDuration)
            // layer.position.x = animator.value
        }
        animator.retarget(to: 40)
        while !animator.advance(by: 1.0 / 120) {}  // true on the frame it settles
        #expect(animator.isSettled && animator.value == 40)
    }

    @Test func gestureHandOffIn2D() throws {
        var card = SpringAnimator(spring: .bouncy, value: SIMD2(0.0, 0.0), target: SIMD2(0.0, 0.0))
        let release = SIMD2(140.0, -30.0), releaseVelocity = SIMD2(900.0, 250.0)  // from the pan gesture
        card.restart(from: release, velocity: releaseVelocity)
        let landing = Decay.normal.projectedEnd(from: release, velocity: releaseVelocity)
        card.retarget(to: landing.x > 200 ? SIMD2(400, 0) : SIMD2(0, 0))
        #expect(card.target == SIMD2(400, 0) && card.value == release)
    }

    @Test func scrollFlingRubberBandAndBounce() throws {
        let band = try RubberBand(dimension: 800)
        let shown = band.clamp(-120, to: 0...2000)  // dragged 120 past the top
        var scroll = BoundedDecayAnimator(value: 1900, velocity: 2500, bounds: 0...2000)
        while !scroll.advance(by: 1.0 / 120) {}  // decays, meets 2000, springs back onto it
        #expect(shown < 0 && shown > -120 && scroll.isSettled && scroll.value == 2000)
    }

    @Test func smallScene() throws {
        // Scene vectors are SIMD3<Double>: a 2-D scene uses x and y, z stays 0.
        let ball = try PhysicsBody(name: "ball", position: SIMD3(0, 2, 0), velocity: SIMD3(1.5, 0, 0), radius: 0.1)
        let floor = try Plane.floor(dimensions: 2, restitution: 0.6)
        let scene = try PhysicsScene(dimensions: 2, bodies: [ball], gravity: SIMD3(0, -9.81, 0), planes: [floor])
        let trajectory = try Simulation(scene: scene).run(method: .dop853(tolerance: 1e-10), duration: 2)
        let firstImpact = trajectory.events.first?.time
        // Falling 1.9 m to the ball's radius: t = √(2·1.9/9.81).
        #expect(abs(try #require(firstImpact) - (2 * 1.9 / 9.81).squareRoot()) <= 1e-12)
    }

    @Test func sceneSteppedLive() throws {
        let ball = try PhysicsBody(name: "ball", position: SIMD3(0, 2, 0), velocity: SIMD3(1.5, 0, 0), radius: 0.1)
        let floor = try Plane.floor(dimensions: 2, restitution: 0.6)
        let scene = try PhysicsScene(dimensions: 2, bodies: [ball], gravity: SIMD3(0, -9.81, 0), planes: [floor])
        var world = try PhysicsSimulator(scene: scene, method: .rk4(timeStep: 1.0 / 240))
        for frameDuration in [1.0 / 60, 1.0 / 120, 1.0 / 60] {  // as the display link reports them
            world.advance(by: frameDuration)
            // ballView.center = world.position(ofBody: 0)
        }
        try world.setVelocity(SIMD3(0, 4, 0), ofBody: 0)  // takes effect at this frame
        let impacts = world.advance(by: 1.0 / 60)  // this frame's impacts
        // Free flight (RK4 is exact on it): x = 1.5·t until the flick at t0 = 1/24 s sets (0, 4).
        let t0 = 1.0 / 24, y0 = 2 - 0.5 * 9.81 * t0 * t0, s = 1.0 / 60
        #expect(abs(world.position(ofBody: 0).x - 1.5 * t0) <= 1e-12)
        #expect(abs(world.position(ofBody: 0).y - (y0 + 4 * s - 0.5 * 9.81 * s * s)) <= 1e-12)
        #expect(impacts.isEmpty)
    }

    @Test func dropBakedForCoreAnimation() throws {
        let drop = try MotionSource(dropFrom: 1, gravity: 9.81, restitution: 0.5)  // until it rests
        let fit = try KeyframeBaker.bake(drop, tolerance: 0.001)
        #if canImport(QuartzCore)
            let animation = try fit.animation.makeCAKeyframeAnimation()  // values, keyTimes, timing functions
        #endif
        let card = try MotionSource(spring: .bouncy, from: 0, to: 300)  // ends on 300 where it settles
        let slide = try KeyframeBaker.bake(card, tolerance: 0.001)
        #expect(fit.maxError <= 0.001 && drop.breakpoints.count >= 2 && fit.animation.values.last == [0])
        #expect(slide.animation.values.last == [300] && card.duration == DampedSpring.bouncy.settlingDuration)
    }

    @Test func aRetargetableSpring() throws {
        let baked = try RetargetableSpring(spring: .bouncy, tolerance: 0.001)  // step and impulse responses
        let json = KeyframeExport.json(baked)  // what kinema-spring.js plays
        let offset = try baked.retargetOffset(by: 300 - 100)  // the target moved from 100 to 300: −200 → 0
        #if canImport(QuartzCore)
            let layer = CALayer(), now = CACurrentMediaTime(), finger = (x: 180.0, velocity: -800.0)
            layer.position.x = 300  // the model value is the new target; the offset plays on top of it
            layer.add(
                try baked.makeRetargetAnimation(keyPath: "position.x", by: 300 - 100, beginTime: now), forKey: nil)
            // A pan's release: the model at the target, the offset from the finger, the finger's velocity.
            layer.add(
                try baked.makeRetargetAnimation(keyPath: "position.x", by: 300 - finger.x, beginTime: now), forKey: nil)
            layer.add(
                try baked.makeReleaseAnimation(keyPath: "position.x", velocity: finger.velocity, beginTime: now),
                forKey: nil)
        #endif
        let calm = try MotionSource(reducedMotionOf: try MotionSource(spring: .bouncy))  // no overshoot
        #expect(json.contains("\"format\": \"kinema-retargetable-spring\""))
        #expect(offset.values.first == [-200] && offset.values.last == [0])
        // The spring's closed form overshoots 1 by 4.6 %; its reduced form stays at or below 1.
        #expect((0...1_000).allSatisfy { calm.value(at: calm.duration * Double($0) / 1_000) <= 1 })
    }

    @Test func curves() throws {
        let easing = try Easing(name: "cubic-bezier(0.3,-0.4,0.6,1.5)")
        let eased = easing.value(at: 0.5)
        let penner = PennerEasing(.bounce, .out).value(at: 6.0 / 11)  // 0.75
        let book = LockwoodBounce().value(at: 6.0 / 11)  // 0.7: not Penner's, not physical
        #expect(abs(penner - 0.75) <= 1e-15 && abs(book - 0.7) <= 1e-15 && eased.isFinite)
    }

    /// docs/library.md's nine snippets and the README's Swift example.
    @Test func documentedSnippetsAreTheOnesCompiledHere() throws {
        let library = try documentedSnippets(in: "docs/library.md"), readme = try documentedSnippets(in: "README.md")
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let compiled = Self.normalized(source)
        #expect(library.count == 9 && readme.count == 1)
        for snippet in library + readme {
            #expect(compiled.contains(Self.normalized(snippet)), "Documented snippet not compiled here:\n\(snippet)")
        }
    }

    /// The text without its whitespace: the layout (alignment, line breaks) may differ, the code may not.
    static func normalized(_ text: String) -> String {
        String(text.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) }.map(Character.init))
    }
}
