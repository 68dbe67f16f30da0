import Foundation
import KinemaTestSupport
import Testing

@_spi(Engine) @testable import Kinema

/// Moreau–Jean time stepping against closed forms: resting columns and wedges stay exactly where
/// statics puts them, an impact on a row of touching balls leaves as Newton's cradle does,
/// Coulomb's cone holds or lets go at tan θ = μ on planes and on spheres, and piles end asleep
/// with nothing inside anything.
struct MoreauJeanTests {
    /// `scene` run by `moreau-jean` at `h` (as `kinema --integrator moreau-jean --dt h` runs it).
    static func run(_ scene: PhysicsScene, timeStep h: Double = 1e-3, duration: Double, sampleRate: Double) throws
        -> Trajectory
    {
        try Simulation(scene: scene).run(method: .moreauJean(timeStep: h), duration: duration, sampleRate: sampleRate)
    }

    /// The body's position at sample `i`.
    static func position(_ t: Trajectory, _ i: Int, body b: Int) -> SIMD3<Double> { t.position(atSample: i, ofBody: b) }

    static func velocity(_ t: Trajectory, _ i: Int, body b: Int) -> SIMD3<Double> { t.velocity(atSample: i, ofBody: b) }

    @Test func columnOfBallsStaysAtRest() throws {
        // Ten balls stacked on the floor, each touching the next: the forces balance exactly.
        let bodies = try (0..<10).map {
            try PhysicsBody(name: "b\($0)", position: SIMD3(0, 0.1 + 0.2 * Double($0), 0), radius: 0.1)
        }
        let scene = try PhysicsScene(
            dimensions: 2, bodies: bodies, gravity: SIMD3(0, -9.81, 0),
            planes: [Plane(name: "floor", normal: SIMD3(0, 1, 0), restitution: 0.5)],
            contacts: PhysicsScene.Contacts(restitution: 0.5))
        let run = try Self.run(scene, duration: 2, sampleRate: 10)
        for i in 0..<run.count {
            for b in bodies.indices {
                let drift = Self.position(run, i, body: b) - bodies[b].position
                // At most the velocity solve's residual over the run, and the overlap the projection
                // may leave at each of the contacts below (ten at most).
                let bound = ContactTolerances.velocityResidual * run.times[i] + 10 * ContactTolerances.overlap
                #expect((drift * drift).sum().squareRoot() <= bound, "b\(b) at t = \(run.times[i])")
            }
        }
        #expect(run.events.isEmpty)
    }

    @Test func liveFramesGiveTheBatchRun() throws {
        // Three balls dropped onto a floor, one on another: stepped frame by frame by
        // PhysicsSimulator, the states at the frames are the batch run's samples, bit for bit
        // (the same steps), and the impacts are the same.
        let bodies = try [
            PhysicsBody(name: "a", position: SIMD3(0, 0.3, 0), radius: 0.1),
            PhysicsBody(name: "b", position: SIMD3(0.05, 0.6, 0), radius: 0.1),
            PhysicsBody(name: "c", position: SIMD3(0.4, 0.5, 0), velocity: SIMD3(-1, 0, 0), radius: 0.1)
        ]
        let scene = try PhysicsScene(
            dimensions: 2, bodies: bodies, gravity: SIMD3(0, -9.81, 0),
            planes: [Plane(name: "floor", normal: SIMD3(0, 1, 0), restitution: 0.5)],
            contacts: PhysicsScene.Contacts(restitution: 0.5, friction: 0.3))
        let method = IntegrationMethod.moreauJean(timeStep: 1.0 / 240)
        #expect(method.name == "moreau-jean" && method.timeStep == 1.0 / 240)
        let batch = try Simulation(scene: scene).run(method: method, duration: 1, sampleRate: 60)
        var live = try PhysicsSimulator(scene: scene, method: method)
        var events: [ImpactEvent] = []
        for i in 1..<batch.count {
            events += live.advance(to: batch.times[i])
            for body in bodies.indices {
                #expect(
                    live.position(ofBody: body) == batch.position(atSample: i, ofBody: body), "t = \(batch.times[i])")
                #expect(live.velocity(ofBody: body) == batch.velocity(atSample: i, ofBody: body))
            }
        }
        #expect(live.failure == nil && !events.isEmpty && events == batch.events)
    }

    @Test func ballRestsInTheNotchOfTwoBalls() throws {
        // Two fixed balls 0.16 apart; a third of the same radius dropped between them settles on
        // both, its centre at the apex of the triangle of side 2r: height √((2r)² − s²).
        let r = 0.1, s = 0.08
        let scene = try PhysicsScene(
            dimensions: 2,
            bodies: [
                PhysicsBody(name: "left", position: SIMD3(-s, 0, 0), radius: r, isStatic: true),
                PhysicsBody(name: "right", position: SIMD3(s, 0, 0), radius: r, isStatic: true),
                PhysicsBody(name: "top", position: SIMD3(0, 0.3, 0), radius: r)
            ], gravity: SIMD3(0, -9.81, 0), contacts: PhysicsScene.Contacts(restitution: 0.3))
        let run = try Self.run(scene, duration: 3, sampleRate: 10)
        let end = Self.position(run, run.count - 1, body: 2)
        // Off the symmetry line by the velocity solve's residual over a step, below the projection's target.
        #expect(abs(end.x) <= ContactTolerances.overlap)
        // The rest position to the projection's overlap bound (1e-8 of the scale, 1 here).
        #expect(abs(end.y - (4 * r * r - s * s).squareRoot()) <= 1e-8)
        #expect(Self.velocity(run, run.count - 1, body: 2) == .zero, "asleep: exactly at rest")
    }

    @Test func touchingRowStruckAtOneEndFollowsMoreausLaw() throws {
        // Three touching balls in free space, the first moving into the second at 1 m/s, elastic.
        // Moreau's law at both contacts at once (separation ≥ e × approach, impulses ≥ 0, one of
        // the two zero at each contact): with impulses p, q, (1 − p, p − q, q), and both active,
        // 2p − q = 2 and 2q − p = 0: p = 4/3, q = 2/3, velocities (−1/3, 2/3, 2/3): momentum 1 and
        // energy 1/2 kept. (Pairwise impacts one after the other, a row with gaps, give (0, 0, 1).)
        let r = 0.05
        for reversed in [false, true] {
            var bodies = try (0..<3).map {
                try PhysicsBody(
                    name: "b\($0)", position: SIMD3(2 * r * Double($0), 0, 0), velocity: SIMD3($0 == 0 ? 1 : 0, 0, 0),
                    radius: r)
            }
            if reversed { bodies.reverse() }
            let scene = try PhysicsScene(
                dimensions: 1, bodies: bodies, contacts: PhysicsScene.Contacts(restitution: 1), restVelocity: 0)
            let run = try Self.run(scene, duration: 0.1, sampleRate: 100)
            let expected = ["b0": -1.0 / 3, "b1": 2.0 / 3, "b2": 2.0 / 3]
            for (index, body) in bodies.enumerated() {
                let v = Self.velocity(run, run.count - 1, body: index).x
                // The velocity solve's residual.
                #expect(
                    abs(v - expected[body.name]!) <= ContactTolerances.velocityResidual,
                    "\(body.name), bodies reversed: \(reversed)")
            }
        }
    }

    /// A ball on a plane tilted by θ with friction μ.
    static func incline(angle theta: Double, friction mu: Double) throws -> Trajectory {
        let n = SIMD3(-Double.sin(theta), Double.cos(theta), 0)
        let scene = try PhysicsScene(
            dimensions: 2, bodies: [PhysicsBody(name: "ball", position: 0.05 * n, radius: 0.05)],
            gravity: SIMD3(0, -9.81, 0),
            planes: [Plane(name: "slope", normal: n, restitution: 0, friction: mu)])
        return try run(scene, duration: 1, sampleRate: 10)
    }

    @Test func frictionConeOnAnIncline() throws {
        let mu = 0.5, g = 9.81
        // Below tan θ = μ the ball sticks: it never moves.
        let held = try Self.incline(angle: Double.atan(0.9 * mu), friction: mu)
        for i in 0..<held.count {
            #expect(Self.position(held, i, body: 0) == held.scene.bodies[0].position)
        }
        // Above, it slides down the slope at (sin θ − μ cos θ) g: the speed exact at every step
        // (a constant acceleration), the distance within a step's share, ½ a h t.
        let theta = Double.atan(1.5 * mu), a = (Double.sin(theta) - mu * Double.cos(theta)) * g
        let slid = try Self.incline(angle: theta, friction: mu)
        let down = SIMD3(-Double.cos(theta), -Double.sin(theta), 0)
        for i in 1..<slid.count {
            let t = slid.times[i]
            let speed = (Self.velocity(slid, i, body: 0) * down).sum()
            #expect(abs(speed - a * t) <= 1e-12 * a * t * 1e3, "speed at t = \(t)")
            let distance = ((Self.position(slid, i, body: 0) - slid.scene.bodies[0].position) * down).sum()
            #expect(abs(distance - 0.5 * a * t * t) <= 0.5 * a * 1e-3 * t * (1 + 1e-9), "distance at t = \(t)")
        }
    }

    /// A ball resting on a fixed ball, the line of centres θ from the vertical, friction μ between them.
    static func ballOnBall(angle theta: Double, friction mu: Double) throws -> Trajectory {
        let scene = try PhysicsScene(
            dimensions: 2,
            bodies: [
                PhysicsBody(name: "base", position: .zero, radius: 0.1, isStatic: true),
                PhysicsBody(
                    name: "top", position: SIMD3(0.2 * Double.sin(theta), 0.2 * Double.cos(theta), 0), radius: 0.1)
            ], gravity: SIMD3(0, -9.81, 0), contacts: PhysicsScene.Contacts(restitution: 0, friction: mu))
        return try run(scene, duration: 0.5, sampleRate: 10)
    }

    @Test func frictionHoldsABallOnABall() throws {
        let mu = 0.5
        let held = try Self.ballOnBall(angle: Double.atan(0.9 * mu), friction: mu)
        for i in 0..<held.count {
            #expect(Self.position(held, i, body: 1) == held.scene.bodies[1].position, "held at t = \(held.times[i])")
        }
        // Past the cone it slides off: the first step's acceleration along the surface is
        // (sin θ − μ cos θ) g, to the change of θ over a step.
        let theta = Double.atan(1.5 * mu)
        let slid = try Self.ballOnBall(angle: theta, friction: mu)
        let moved = Self.position(slid, slid.count - 1, body: 1) - slid.scene.bodies[1].position
        #expect(moved.x > 0.01, "slides away from the top")
        let frictionless = try Self.ballOnBall(angle: theta, friction: 0)
        let free = Self.position(frictionless, 1, body: 1) - frictionless.scene.bodies[1].position
        let first = Self.position(slid, 1, body: 1) - slid.scene.bodies[1].position
        let g = 9.81, t = slid.times[1]
        let along = { (d: SIMD3<Double>) in (d * d).sum().squareRoot() }
        // Without friction the ball starts at g sin θ, with it at (sin θ − μ cos θ) g: their ratio.
        let ratio = (Double.sin(theta) - mu * Double.cos(theta)) / Double.sin(theta)
        #expect(abs(along(first) / along(free) - ratio) <= 0.05, "at t = \(t), g = \(g)")
    }
}

/// A pile: the twelve balls of examples/pile-12-2d.json thrown into a box (restitution 0.5).
struct MoreauJeanPileTests {
    static func pile() throws -> PhysicsScene {
        let url = packageRoot().appendingPathComponent("examples/pile-12-2d.json")
        return try PhysicsScene(json: try String(contentsOf: url, encoding: .utf8))
    }

    /// Kinetic plus potential energy at sample `i`.
    static func energy(_ t: Trajectory, _ i: Int) -> Double {
        let scene = t.scene
        var total = 0.0
        for (b, body) in scene.bodies.enumerated() {
            let x = MoreauJeanTests.position(t, i, body: b), v = MoreauJeanTests.velocity(t, i, body: b)
            total += body.mass * (0.5 * (v * v).sum() - (scene.gravity * x).sum())
        }
        return total
    }

    @Test(arguments: [1e-3, 1.0 / 240])
    func pileSettlesAsleepWithNothingInside(timeStep h: Double) throws {
        let scene = try Self.pile()
        let run = try MoreauJeanTests.run(scene, timeStep: h, duration: 4, sampleRate: 60)
        // The projection's bound, 1e-8 of the scale (1 here), at every sample.
        var deepest = 0.0
        for i in 0..<run.count {
            for (b, body) in scene.bodies.enumerated() {
                let x = MoreauJeanTests.position(run, i, body: b)
                for plane in scene.planes {
                    deepest = max(deepest, body.radius + plane.offset - (x * plane.normal).sum())
                }
                for o in (b + 1)..<scene.bodies.count {
                    let d = x - MoreauJeanTests.position(run, i, body: o)
                    deepest = max(deepest, body.radius + scene.bodies[o].radius - (d * d).sum().squareRoot())
                }
            }
        }
        #expect(deepest <= 1e-8)
        // Impacts and friction only take energy away: none rises from one sample to the next by
        // more than the projection's moves can add (1e-8 m against gravity, per body).
        let slack = 1e-8 * 9.81 * Double(scene.bodies.count)
        for i in 1..<run.count {
            #expect(Self.energy(run, i) <= Self.energy(run, i - 1) + slack, "at t = \(run.times[i])")
        }
        // Asleep at the end: every ball exactly at rest, and still at its place a second before.
        let last = run.count - 1
        for b in scene.bodies.indices {
            #expect(MoreauJeanTests.velocity(run, last, body: b) == .zero, "b\(b)")
            #expect(MoreauJeanTests.position(run, last, body: b) == MoreauJeanTests.position(run, last - 60, body: b))
        }
    }
}
