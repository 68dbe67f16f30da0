import Foundation
import KinemaTestSupport
import Testing

@_spi(Engine) @testable import Kinema

/// `exact` under uniform gravity on the event queue: every flight a parabola, every impact
/// predicted in closed form. References: the closed forms of each case (the bounce series, two
/// parabolas meeting, a parabola reaching a sphere, Coulomb friction on a floor and an incline),
/// energy, and dop853 at 1e-12 for the order of impacts.
struct EventQueueGravityTests {
    static let g = 9.81

    /// A ball dropped from 1 m (e = 0.8): impacts at the geometric series' times to 1e-12 s, at
    /// rest (after 4.06 s) from the first bounce slower than the rest velocity, every sample on
    /// the parabolas.
    @Test func aDropBouncesAtTheSeriesTimesAndComesToRest() throws {
        let e = 0.8, scene = try PhysicsScene.drop(height: 1, gravity: Self.g, restitution: e)
        let run = try Simulation(scene: scene).run(method: .exact, duration: 5, sampleRate: 240)
        var time = (2 / Self.g).squareRoot(), speed = (2 * Self.g).squareRoot()
        var expected: [(time: Double, speedOut: Double)] = []
        while true {
            let out = e * speed
            if out < scene.restVelocity {
                expected.append((time, 0))
                break
            }
            expected.append((time, out))
            time += 2 * out / Self.g
            speed = out
        }
        #expect(run.events.count == expected.count, "\(run.events.count) impacts, \(expected.count) in the series")
        for (event, reference) in zip(run.events, expected) {
            #expect(abs(event.time - reference.time) <= 1e-12, "impact at \(event.time), series \(reference.time)")
            #expect(abs(event.speedOut - reference.speedOut) <= 1e-12 * (1 + reference.speedOut))
        }
        // Every step is an event of the queue, not a step of an integrator.
        #expect(run.steps == run.events.count)
        for i in 0..<run.count {
            let t = run.times[i], x = run.position(atSample: i)
            let analytic: Double
            if let last = expected.last(where: { $0.time <= t }) {
                let s = t - last.time
                analytic = last.speedOut == 0 ? 0 : last.speedOut * s - 0.5 * Self.g * s * s
            } else {
                analytic = 1 - 0.5 * Self.g * t * t
            }
            #expect(abs(x - analytic) <= 1e-12, "t = \(t): \(x), closed form \(analytic)")
        }
    }

    /// Two balls thrown towards each other at the same height: both fall alike, so they meet when
    /// the gap along x closes, 2 − 2t = 0.2 at t = 0.9, and exchange their x velocities there.
    @Test func twoFallingBallsMeetWhenTheirRelativeLineSaysSo() throws {
        let scene = try PhysicsScene(
            dimensions: 2,
            bodies: [
                PhysicsBody(name: "a", position: SIMD3(0, 10, 0), velocity: SIMD3(1, 0, 0), radius: 0.1),
                PhysicsBody(name: "b", position: SIMD3(2, 10, 0), velocity: SIMD3(-1, 0, 0), radius: 0.1)
            ], gravity: SIMD3(0, -Self.g, 0), contacts: .init(restitution: 1))
        let run = try Simulation(scene: scene).run(method: .exact, duration: 1.2, sampleRate: 10)
        let impact = try #require(run.events.first)
        #expect(run.events.count == 1)
        #expect(abs(impact.time - 0.9) <= 1e-12, "met at \(impact.time)")
        let last = run.count - 1, t = run.times[last]
        // After the exchange a moves back at −1 from x = 0.9, b at +1 from 1.1; both fall from 10.
        #expect(abs(run.position(atSample: last, ofBody: 0).x - (0.9 - (t - 0.9))) <= 1e-12)
        #expect(abs(run.position(atSample: last, ofBody: 1).x - (1.1 + (t - 0.9))) <= 1e-12)
        #expect(abs(run.position(atSample: last, ofBody: 0).y - (10 - 0.5 * Self.g * t * t)) <= 1e-12)
    }

    /// A ball falling from rest beside the top of a static sphere (radius 0.5 at the origin, the
    /// ball's 0.1 at x = 0.3): they touch where 2 − g t²/2 = √(0.6² − 0.3²), a quartic in t
    /// against a body that does not fall. Both times to 1e-12 s, and one static sphere stays
    /// a target for every ball that comes after (a second ball, later).
    @Test func aBallMeetsAStaticSphereWhereItsParabolaReachesIt() throws {
        let scene = try PhysicsScene(
            dimensions: 2,
            bodies: [
                PhysicsBody(name: "post", position: .zero, radius: 0.5, isStatic: true),
                PhysicsBody(name: "first", position: SIMD3(0.3, 2, 0), radius: 0.1),
                PhysicsBody(name: "second", position: SIMD3(-0.3, 3, 0), radius: 0.1)
            ], gravity: SIMD3(0, -Self.g, 0), contacts: .init(restitution: 0.5))
        let run = try Simulation(scene: scene).run(method: .exact, duration: 0.8, sampleRate: 10)
        let height = (0.36 - 0.09).squareRoot()
        let first = (2 * (2 - height) / Self.g).squareRoot(), second = (2 * (3 - height) / Self.g).squareRoot()
        let impacts = run.events.filter { $0.collider == "post" || $0.body == "post" }
        #expect(impacts.count == 2, "\(run.events.map { "\($0.body)–\($0.collider) at \($0.time)" })")
        #expect(abs(impacts[0].time - first) <= 1e-12, "first at \(impacts[0].time), closed form \(first)")
        #expect(abs(impacts[1].time - second) <= 1e-12, "second at \(impacts[1].time), closed form \(second)")
        ContactTests.expectNothingInside(run, scene, "exact")
    }

    /// A ball sliding on a floor with friction μ from 2 m/s: decelerates at μg and stops after
    /// 2/(μg) s, 2²/(2μg) m on; held there after.
    @Test func aBallSlidingOnAFloorStopsWhereFrictionSays() throws {
        let mu = 0.5, r = 0.1
        let scene = try PhysicsScene(
            dimensions: 2, bodies: [PhysicsBody(name: "ball", position: SIMD3(0, r, 0), velocity: SIMD3(2, 0, 0))],
            gravity: SIMD3(0, -Self.g, 0),
            planes: [Plane(name: "floor", normal: SIMD3(0, 1, 0), offset: r, restitution: 0.5, friction: mu)])
        let run = try Simulation(scene: scene).run(method: .exact, duration: 1, sampleRate: 50)
        let stop = 2 / (mu * Self.g)
        #expect(run.events.isEmpty)
        for i in 0..<run.count {
            let t = min(run.times[i], stop), x = 2 * t - 0.5 * mu * Self.g * t * t
            #expect(abs(run.position(atSample: i, ofBody: 0).x - x) <= 1e-12, "t = \(run.times[i])")
            #expect(abs(run.position(atSample: i, ofBody: 0).y - r) <= 1e-15)
            #expect(abs(run.velocity(atSample: i, ofBody: 0).x - (2 - mu * Self.g * t)) <= 1e-12)
        }
    }

    /// A ball at rest on an incline of 30°: friction holds it where μ ≥ tan θ; below, it slides
    /// down with (sin θ − μ cos θ) g.
    @Test(arguments: [0.7, 0.5, 0.2, 0.0])
    func theFrictionConeOnAnIncline(_ mu: Double) throws {
        let theta = Double.pi / 6, r = 0.1
        let normal = SIMD3(-sin(theta), cos(theta), 0), down = SIMD3(-cos(theta), -sin(theta), 0)
        let scene = try PhysicsScene(
            dimensions: 2, bodies: [PhysicsBody(name: "ball", position: r * normal, radius: r)],
            gravity: SIMD3(0, -Self.g, 0),
            planes: [Plane(name: "incline", normal: normal, restitution: 0, friction: mu)])
        let run = try Simulation(scene: scene).run(method: .exact, duration: 1, sampleRate: 20)
        let acceleration = max(0, sin(theta) - mu * cos(theta)) * Self.g
        #expect(run.events.isEmpty)
        for i in 0..<run.count {
            let t = run.times[i], expected = r * normal + (0.5 * acceleration * t * t) * down
            let moved = run.position(atSample: i, ofBody: 0) - expected
            #expect((moved * moved).sum().squareRoot() <= 1e-12, "μ = \(mu), t = \(t): off by \(moved)")
        }
    }

    /// 80 elastic balls falling into a 2-D box (restitution 1, no rest velocity): the energy of
    /// every sample is the start's to 1e-12, nothing is inside anything, and dop853 at 1e-12
    /// meets the first impacts in the same order within 1e-6 s.
    @Test func anElasticRainKeepsItsEnergyAndTheStepperFollowsIt() throws {
        let scene = try Self.rain(balls: 80, restitution: 1, restVelocity: 0, seed: 3)
        let exact = try Simulation(scene: scene).run(method: .exact, duration: 1, sampleRate: 30)
        #expect(exact.events.count >= 200 && exact.steps == exact.events.count, "\(exact.events.count) impacts")
        let energies = (0..<exact.count).map { i in
            scene.bodies.indices.map { (b: Int) -> Double in
                let v = exact.velocity(atSample: i, ofBody: b), y = exact.position(atSample: i, ofBody: b).y
                return 0.5 * (v * v).sum() + Self.g * y
            }.reduce(0, +)
        }
        #expect(
            energies.allSatisfy { abs($0 - energies[0]) <= 1e-12 * abs(energies[0]) },
            "energy \(energies.min()!)…\(energies.max()!)")
        ContactTests.expectNothingInside(exact, scene, "exact")
        let stepped = try Simulation(scene: scene).run(method: .dop853(tolerance: 1e-12), duration: 1, sampleRate: 30)
        for (a, b) in zip(exact.events, stepped.events).prefix(40) {
            #expect(
                a.body == b.body && a.collider == b.collider && abs(a.time - b.time) <= 1e-6,
                "dop853: \(b.body)–\(b.collider) at \(b.time), exact \(a.body)–\(a.collider) at \(a.time)")
        }
    }

    /// A ball dropped on one at rest on the floor, stopping on it (contacts of restitution 0):
    /// the queue hands the stack to the stepper, which holds it; batch and live agree.
    @Test func aStackFormsWhereTheQueueHandsOffToTheStepper() throws {
        let r = 0.1
        let scene = try PhysicsScene(
            dimensions: 2,
            bodies: [
                PhysicsBody(name: "low", position: SIMD3(0, r, 0), radius: r),
                PhysicsBody(name: "high", position: SIMD3(0, 1, 0), radius: r)
            ], gravity: SIMD3(0, -Self.g, 0),
            planes: [Plane(name: "floor", normal: SIMD3(0, 1, 0), restitution: 0.5)], contacts: .init(restitution: 0))
        let run = try Simulation(scene: scene).run(method: .exact, duration: 1, sampleRate: 60)
        let landing = (2 * (1 - 3 * r) / Self.g).squareRoot()
        let first = try #require(run.events.first)
        #expect(first.body == "low" && first.collider == "high" && abs(first.time - landing) <= 1e-12)
        let last = run.count - 1
        #expect(abs(run.position(atSample: last, ofBody: 0).y - r) <= 1e-9)
        #expect(abs(run.position(atSample: last, ofBody: 1).y - 3 * r) <= 1e-9)
        ContactTests.expectNothingInside(run, scene, "exact")
        var streamed: [Double] = []
        let summary = try Simulation(scene: scene).run(method: .exact, duration: 1, sampleRate: 60, samplesPerChunk: 7)
        {
            streamed += $0.positions
        }
        #expect(streamed == run.positions && summary.events.map(\.time) == run.events.map(\.time))
        var live = try PhysicsSimulator(scene: scene, method: .exact)
        for i in 1..<run.count {
            live.advance(to: run.times[i])
            #expect(live.failure == nil)
            for b in 0..<2 {
                let off = live.position(ofBody: b) - run.position(atSample: i, ofBody: b)
                #expect((off * off).sum().squareRoot() <= 1e-12, "body \(b) at t = \(run.times[i])")
            }
        }
    }

    /// A ball at rest on the floor hit from above off its centre line (the falling ball's centre
    /// half a diameter to its right): the floor holds the lower ball down through the impact, so
    /// the one impulse problem has J = (1 + e)·u / (1/m + sin²θ/m) along the line of centres
    /// (u the approach along it, sin θ = 1/2). The lower ball then slides left at J sin θ / m
    /// into the wall, the upper one flies on a parabola to the floor: the queue goes on after the
    /// impact (every step one of its events), each time to 1e-12 s.
    @Test func aBallOnTheFloorHitFromAboveSlidesOnInTheQueue() throws {
        let r = 0.1, e = 0.5, offset = r, wall = -0.5
        let scene = try PhysicsScene(
            dimensions: 2,
            bodies: [
                PhysicsBody(name: "low", position: SIMD3(0, r, 0), radius: r),
                PhysicsBody(name: "high", position: SIMD3(offset, 1, 0), radius: r)
            ], gravity: SIMD3(0, -Self.g, 0),
            planes: [
                Plane(name: "floor", normal: SIMD3(0, 1, 0), restitution: 0.5),
                Plane(name: "left", normal: SIMD3(1, 0, 0), offset: wall, restitution: 0.5)
            ], contacts: .init(restitution: e))
        let run = try Simulation(scene: scene).run(method: .exact, duration: 0.8, sampleRate: 100)
        let sine = offset / (2 * r), cosine = (1 - sine * sine).squareRoot(), meeting = r + 2 * r * cosine
        let impact = (2 * (1 - meeting) / Self.g).squareRoot(), speed = Self.g * impact
        let impulse = (1 + e) * speed * cosine / (1 + sine * sine)
        let low = -impulse * sine, high = SIMD2(impulse * sine, -speed + impulse * cosine)
        let atWall = impact + (-r - wall) / -low
        // The upper ball reaches the floor where meeting + vy s − g s²/2 = r.
        let fall = (high.y + (high.y * high.y + 2 * Self.g * (meeting - r)).squareRoot()) / Self.g
        let expected: [(body: String, collider: String, time: Double)] = [
            ("low", "high", impact), ("high", "floor", impact + fall), ("low", "left", atWall)
        ].sorted { $0.time < $1.time }
        let order = run.events.prefix(3).map { "\($0.body)–\($0.collider)" }
        #expect(order == expected.map { "\($0.body)–\($0.collider)" }, "\(order)")
        for (event, reference) in zip(run.events, expected) {
            #expect(
                abs(event.time - reference.time) <= 1e-12,
                "\(event.body)–\(event.collider) at \(event.time), closed form \(reference.time)")
        }
        #expect(run.steps == run.events.count, "\(run.steps) steps for \(run.events.count) impacts")
        for i in 0..<run.count where run.times[i] > impact && run.times[i] < min(atWall, impact + fall) {
            let s = run.times[i] - impact
            #expect(abs(run.velocity(atSample: i, ofBody: 0).x - low) <= 1e-12, "t = \(run.times[i])")
            #expect(abs(run.position(atSample: i, ofBody: 0).y - r) <= 1e-12)
            let upper = run.position(atSample: i, ofBody: 1)
            #expect(abs(upper.x - (offset + high.x * s)) <= 1e-12, "t = \(run.times[i])")
            #expect(abs(upper.y - (meeting + high.y * s - 0.5 * Self.g * s * s)) <= 1e-12, "t = \(run.times[i])")
        }
        ContactTests.expectNothingInside(run, scene, "exact")
        var live = try PhysicsSimulator(scene: scene, method: .exact)
        for i in 1..<run.count {
            live.advance(to: run.times[i])
            #expect(live.failure == nil)
            let off = live.position(ofBody: 0) - run.position(atSample: i, ofBody: 0)
            #expect((off * off).sum().squareRoot() <= 1e-12, "live at t = \(run.times[i])")
        }
    }

    /// A stack of two balls at rest from the start (so the stepper runs the scene) and, beside
    /// it, a ball sliding on the floor: with friction μ it stops after 2/(μg) s, 2²/(2μg) m on;
    /// without, it slides on at 2 m/s into the wall at 0.9 m / 2 m/s. Sliding on a plane alone,
    /// its contact forces are constant, so the exact arcs follow it (to 1e-12 m) where they
    /// refused it before, and the stack keeps its place.
    @Test(arguments: [0.3, 0])
    func aBallSlidesBesideAStackUnderTheExactArcs(_ mu: Double) throws {
        let r = 0.1
        let scene = try PhysicsScene(
            dimensions: 2,
            bodies: [
                PhysicsBody(name: "low", position: SIMD3(0, r, 0), radius: r),
                PhysicsBody(name: "high", position: SIMD3(0, 3 * r, 0), radius: r),
                PhysicsBody(name: "slider", position: SIMD3(0.5, r, 0), velocity: SIMD3(2, 0, 0), radius: r)
            ], gravity: SIMD3(0, -Self.g, 0),
            planes: [
                Plane(name: "floor", normal: SIMD3(0, 1, 0), restitution: 0.5, friction: mu),
                Plane(name: "right", normal: SIMD3(-1, 0, 0), offset: -1.5, restitution: 0.5)
            ], contacts: .init(restitution: 0))
        let run = try Simulation(scene: scene).run(method: .exact, duration: 0.8, sampleRate: 50)
        let atWall = 0.9 / 2, stop = mu > 0 ? 2 / (mu * Self.g) : Double.infinity
        if mu > 0 {
            #expect(run.events.isEmpty, "\(run.events.map { "\($0.body)–\($0.collider) at \($0.time)" })")
        } else {
            let first = try #require(run.events.first)
            #expect(first.body == "slider" && first.collider == "right" && abs(first.time - atWall) <= 1e-12)
        }
        for i in 0..<run.count where run.times[i] < (mu > 0 ? .infinity : atWall) {
            let t = min(run.times[i], stop), x = 0.5 + 2 * t - 0.5 * mu * Self.g * t * t
            #expect(abs(run.position(atSample: i, ofBody: 2).x - x) <= 1e-12, "μ = \(mu), t = \(run.times[i])")
            #expect(abs(run.position(atSample: i, ofBody: 2).y - r) <= 1e-12)
            #expect(abs(run.position(atSample: i, ofBody: 1).y - 3 * r) <= 1e-12)
        }
        ContactTests.expectNothingInside(run, scene, "exact")
    }

    /// Random boxes under gravity, 1-D to 3-D (2–8 balls, a static sphere in some, restitutions
    /// from 0 to 1, friction on the floor in some): at every sample nothing is inside anything
    /// beyond 1e-9 and the energy (kinetic and potential) has not grown beyond rounding; where
    /// the queue hands a stack to the stepper, `exact` may refuse a body sliding in resting
    /// contact, and nothing else.
    @Test(arguments: [1, 2, 3])
    func randomBoxesUnderGravityStayOutsideAndLoseNoEnergy(_ dimensions: Int) throws {
        var rng = SplitMix64(seed: 72 &+ UInt64(dimensions))
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        func restitution() -> Double { [0, 0.3, 0.8, 1][Int(rng.next() % 4)] }
        var finished = 0
        for trial in 0..<16 {
            let radius = 0.05
            var bodies: [PhysicsBody] = []
            if trial % 3 == 0 {
                let centre = [Double](repeating: 0.5, count: dimensions)
                bodies.append(
                    try PhysicsBody(name: "post", position: SIMD3(sceneComponents: centre), radius: 0.1, isStatic: true)
                )
            }
            // In 1-D at most four balls, beside the post, so that random places can be found.
            while bodies.count < 2 + trial % (dimensions == 1 ? 3 : 7) {
                let position = (0..<dimensions).map { _ in 0.1 + 0.8 * unit() }
                let apart = bodies.allSatisfy { body in
                    let gap = zip(body.position.sceneComponents(dimensions), position).map { ($0 - $1) * ($0 - $1) }
                    return gap.reduce(0, +).squareRoot() > body.radius + radius + 1e-3
                }
                guard apart else { continue }
                bodies.append(
                    try PhysicsBody(
                        name: "b\(bodies.count)", position: SIMD3(sceneComponents: position),
                        velocity: SIMD3(sceneComponents: (0..<dimensions).map { _ in 2 * unit() - 1 }), radius: radius))
            }
            var planes: [Plane] = []
            for axis in 0..<dimensions {
                var normal = [Double](repeating: 0, count: dimensions)
                normal[axis] = 1
                let friction = axis == dimensions - 1 && trial % 2 == 1 ? 0.4 : 0
                planes.append(
                    try Plane(
                        name: "low\(axis)", normal: SIMD3(sceneComponents: normal), restitution: restitution(),
                        friction: friction))
                normal[axis] = -1
                planes.append(
                    try Plane(
                        name: "high\(axis)", normal: SIMD3(sceneComponents: normal), offset: -1,
                        restitution: restitution()))
            }
            var g = [Double](repeating: 0, count: dimensions)
            g[dimensions - 1] = -Self.g
            let scene = try PhysicsScene(
                dimensions: dimensions, bodies: bodies, gravity: SIMD3(sceneComponents: g), planes: planes,
                contacts: .init(restitution: restitution()), restVelocity: trial % 4 == 3 ? 0 : 0.01)
            let label = "\(dimensions)-D trial \(trial)"
            do {
                // 20,000 impacts at most: a pile that collapses inelastically reaches the limit sooner.
                let run = try Simulation.$eventBudget.withValue(20_000) {
                    try Simulation(scene: scene).run(method: .exact, duration: 1.5, sampleRate: 30)
                }
                ContactTests.expectNothingInside(run, scene, label)
                let energies = (0..<run.count).map { i in
                    scene.bodies.indices.filter { !scene.bodies[$0].isStatic }.map { (b: Int) -> Double in
                        let v = run.velocity(atSample: i, ofBody: b), x = run.position(atSample: i, ofBody: b)
                        return 0.5 * (v * v).sum() - (scene.gravity * x).sum()
                    }.reduce(0, +)
                }
                for (before, after) in zip(energies, energies.dropFirst()) {
                    #expect(after <= before + 1e-9 * (1 + abs(before)), "\(label): energy \(before) → \(after)")
                }
                finished += 1
            } catch let error as KinemaError where "\(error)".contains("sliding in resting contact") {
                // A stack the stepper holds, with a body sliding in it: exact's stated limit.
            } catch SimulationError.tooManyEvents {
                // Spheres pressed together by gravity in a pile: the stated event limit.
            }
        }
        #expect(finished >= 12, "\(finished) of 16 runs finished")
    }

    /// The predictions' roots: a plane gap's first closing root and a quartic's first root.
    @Test func contactTimesAreTheFirstClosingRoots() throws {
        // Dropped from a gap of 1 under g: g t²/2 = 1.
        #expect(abs(ContactTime.closing(gap: 1, rate: 0, acceleration: -Self.g)! - (2 / Self.g).squareRoot()) <= 1e-15)
        // Leaving the floor at 3 m/s: back after 2·3/g, not at once.
        #expect(abs(ContactTime.closing(gap: 0, rate: 3, acceleration: -Self.g)! - 6 / Self.g) <= 1e-15)
        #expect(ContactTime.closing(gap: 0, rate: -1, acceleration: 5) == 0)  // touching, closing
        #expect(ContactTime.closing(gap: 1, rate: 1, acceleration: 1) == nil)  // moving and pulled away
        // Thrown upwards at a ceiling 1 above at 5 m/s: the first root of 1 − 5t + g t²/2.
        let ceiling = try #require(ContactTime.closing(gap: 1, rate: -5, acceleration: Self.g))
        #expect(abs(ceiling - (5 - (25 - 2 * Self.g).squareRoot()) / Self.g) <= 1e-15)
        #expect(ContactTime.closing(gap: 1, rate: -4, acceleration: Self.g) == nil)  // turns back 0.82 up
        // A sphere 2 above another (reach 1), falling onto it from rest: 2 − g t²/2 = 1.
        let fall = try #require(ContactTime.meeting(SIMD3(0, 2, 0), .zero, SIMD3(0, -Self.g, 0), 1))
        #expect(abs(fall - (2 / Self.g).squareRoot()) <= 1e-15)
        // Thrown up past it sideways (x 1.5 > reach): never.
        #expect(ContactTime.meeting(SIMD3(1.5, 2, 0), SIMD3(0, 3, 0), SIMD3(0, -Self.g, 0), 1) == nil)
        // Touching and leaving upwards at 1 m/s: meets again after 2/g.
        let again = try #require(ContactTime.meeting(SIMD3(0, 1, 0), SIMD3(0, 1, 0), SIMD3(0, -Self.g, 0), 1))
        #expect(abs(again - 2 / Self.g) <= 1e-12)
    }

    /// `balls` of radius 0.04 dropped with velocities in [−1, 1]² into a 1.6 m 2-D box (floor
    /// and two walls), from heights up to 3.2 m.
    static func rain(balls: Int, restitution e: Double, restVelocity: Double, seed: UInt64) throws -> PhysicsScene {
        var rng = SplitMix64(seed: seed)
        func uniform(_ low: Double, _ high: Double) -> Double {
            low + (high - low) * Double(rng.next() >> 11) / Double(1 << 53)
        }
        let r = 0.04, side = 1.6
        var positions: [SIMD3<Double>] = []
        while positions.count < balls {
            let p = SIMD3(uniform(r, side - r), uniform(r, 2 * side), 0)
            if positions.allSatisfy({ (($0 - p) * ($0 - p)).sum() > 4 * r * r }) { positions.append(p) }
        }
        let bodies = try positions.enumerated().map { i, p in
            try PhysicsBody(name: "b\(i)", position: p, velocity: SIMD3(uniform(-1, 1), uniform(-1, 1), 0), radius: r)
        }
        return try PhysicsScene(
            dimensions: 2, bodies: bodies, gravity: SIMD3(0, -Self.g, 0),
            planes: [
                Plane(name: "floor", normal: SIMD3(0, 1, 0), restitution: e),
                Plane(name: "left", normal: SIMD3(1, 0, 0), restitution: e),
                Plane(name: "right", normal: SIMD3(-1, 0, 0), offset: -side, restitution: e)
            ], contacts: .init(restitution: e), restVelocity: restVelocity)
    }
}
