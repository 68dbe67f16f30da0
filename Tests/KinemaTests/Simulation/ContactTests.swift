import Foundation
import KinemaTestSupport
import Testing

@_spi(Engine) @testable import Kinema

/// Contacts between several bodies: an impact passes through what the bodies touch, "at rest"
/// only where a force presses, no grazing hit missed whatever the step, and no body ever on the
/// wrong side of a plane or inside another sphere. References: closed forms (parabolas, straight
/// lines, elastic exchanges of velocity) and geometry.
struct ContactTests {
    static let integrators: [IntegrationMethod] = [
        .dopri5(tolerance: 1e-9), .dop853(tolerance: 1e-9), .rk4(timeStep: 1e-3),
        .semiImplicitEuler(timeStep: 1e-3), .verlet(timeStep: 1e-3), .exact
    ]

    /// Every sample: bodies outside every plane and sphere pairs apart, to 1e-9.
    static func expectNothingInside(_ trajectory: Trajectory, _ scene: PhysicsScene, _ label: String) {
        let d = scene.dimensions
        func position(_ i: Int, _ b: Int) -> [Double] {
            (0..<d).map { trajectory.position(atSample: i, coordinate: b * d + $0) }
        }
        for i in 0..<trajectory.count {
            for (b, body) in scene.bodies.enumerated() {
                let x = position(i, b)
                for plane in scene.planes {
                    let gap =
                        zip(x, plane.normal.sceneComponents(x.count)).map(*).reduce(0, +) - plane.offset - body.radius
                    #expect(
                        gap >= -1e-9,
                        "\(label): \(body.name) \(-gap) inside \(plane.name) at t = \(trajectory.times[i])")
                }
                guard scene.contacts != nil, body.radius > 0 else { continue }
                for o in (b + 1)..<scene.bodies.count where scene.bodies[o].radius > 0 {
                    let y = position(i, o)
                    let gap =
                        zip(x, y).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot() - body.radius
                        - scene.bodies[o].radius
                    #expect(
                        gap >= -1e-9,
                        "\(label): \(body.name) and \(scene.bodies[o].name) overlap by \(-gap) at t = \(trajectory.times[i])"
                    )
                }
            }
        }
    }

    /// A ball at rest on the floor, hit by one dropped from above: the floor holds it through the
    /// impact (Moreau's law: the resting contact's sides do not close), so b bounces off it at
    /// e times its speed, as off a wall; both end at rest stacked (a on the floor at 0.1, b on it
    /// at 0.3), none below.
    @Test(arguments: integrators)
    func aBallHitFromAboveStaysOnTheFloor(_ method: IntegrationMethod) throws {
        let scene = try PhysicsScene(
            dimensions: 1,
            bodies: [
                PhysicsBody(name: "a", position: SIMD3(0.1, 0, 0), radius: 0.1),
                PhysicsBody(name: "b", position: SIMD3(1.0, 0, 0), radius: 0.1)
            ],
            gravity: SIMD3(-9.81, 0, 0),
            planes: [Plane(name: "floor", normal: SIMD3(1, 0, 0), offset: 0, restitution: 0.5)],
            contacts: PhysicsScene.Contacts(restitution: 0.5))
        let trajectory = try Simulation(scene: scene).run(method: method, duration: 2, sampleRate: 10)
        Self.expectNothingInside(trajectory, scene, "\(method)")
        let last = trajectory.count - 1
        #expect(
            abs(trajectory.position(atSample: last, coordinate: 0) - 0.1) <= 1e-9
                && abs(trajectory.position(atSample: last, coordinate: 1) - 0.3) <= 1e-9,
            "\(method): ends at \(trajectory.position(atSample: last, coordinate: 0)), \(trajectory.position(atSample: last, coordinate: 1))"
        )
        // The first impact: b meets a after falling 0.7 m, at √(1.4/9.81) s with √(2·9.81·0.7) m/s.
        let first = try #require(trajectory.events.first)
        guard method.name != "semi-implicit-euler" else { return }  // first order: not exact on a parabola
        #expect(
            abs(first.time - (1.4 / 9.81).squareRoot()) <= 1e-9
                && abs(first.speedIn - (2 * 9.81 * 0.7).squareRoot()) <= 1e-9,
            "\(method): \(first.time), \(first.speedIn)")
        // Then b alone bounces on a: 9 impacts, the last ending at rest. (Passed one pair at a
        // time down to the floor and back, the impulses took 85 to 88 impacts.)
        Self.expectBouncesOnAHeldBall(trajectory, speed: (2 * 9.81 * 0.7).squareRoot(), "a", "b", "\(method)")
    }

    /// Without gravity: a slow ball bounces off the wall (nothing holds it there), b exchanges
    /// velocities with it, it bounces off the wall again and passes b's velocity back.
    @Test(arguments: integrators)
    func anElasticRowAgainstAWallExchangesVelocities(_ method: IntegrationMethod) throws {
        let scene = try PhysicsScene(
            dimensions: 1,
            bodies: [
                PhysicsBody(name: "a", position: SIMD3(0.1001, 0, 0), velocity: SIMD3(-0.005, 0, 0), radius: 0.1),
                PhysicsBody(name: "b", position: SIMD3(0.5, 0, 0), velocity: SIMD3(-1.0, 0, 0), radius: 0.1)
            ],
            planes: [Plane(name: "wall", normal: SIMD3(1, 0, 0), offset: 0, restitution: 1)],
            contacts: PhysicsScene.Contacts(restitution: 1))
        let trajectory = try Simulation(scene: scene).run(method: method, duration: 1, sampleRate: 10)
        Self.expectNothingInside(trajectory, scene, "\(method)")
        let last = trajectory.count - 1
        #expect(
            abs(trajectory.velocity(atSample: last, coordinate: 0) - 0.005) <= 1e-9
                && abs(trajectory.velocity(atSample: last, coordinate: 1) - 1) <= 1e-9,
            "\(method): ends with velocities \(trajectory.velocity(atSample: last, coordinate: 0)), \(trajectory.velocity(atSample: last, coordinate: 1))"
        )
        #expect(
            trajectory.events.map(\.collider) == ["wall", "b", "wall", "b"],
            "\(trajectory.events.map { ($0.time, $0.collider) })")
        #expect(
            abs(trajectory.events[0].speedOut - 0.005) <= 1e-12, "the slow bounce: \(trajectory.events[0].speedOut)")
    }

    /// Slower than the rest velocity, with nothing pressing: an elastic bounce, in every direction.
    @Test(arguments: [[1.0], [0, 1], [-1, 0], [0, 0, -1]])
    func aSlowElasticBounceWithoutGravityIsNotRest(_ normal: [Double]) throws {
        let d = normal.count, speed = 0.0057
        let start = normal.map { (normal.contains(-1) ? -1 : 0) * $0 + 0.2 * $0 }  // 0.1 off the plane (radius 0.1)
        let offset = normal.contains(-1) ? -1.0 : 0.0
        let scene = try PhysicsScene(
            dimensions: d,
            bodies: [
                PhysicsBody(
                    name: "a", position: SIMD3(sceneComponents: start),
                    velocity: SIMD3(sceneComponents: normal.map { -speed * $0 }),
                    radius: 0.1)
            ],
            planes: [Plane(name: "wall", normal: SIMD3(sceneComponents: normal), offset: offset, restitution: 1)])
        let trajectory = try Simulation(scene: scene).run(
            method: .dopri5(tolerance: 1e-9), duration: 30, sampleRate: 10)
        #expect(
            trajectory.events.count == 1 && abs((trajectory.events.first?.speedOut ?? 0) - speed) <= 1e-12,
            "\(normal): \(trajectory.events.map { ($0.time, $0.speedIn, $0.speedOut) })")
        let last = trajectory.count - 1
        let normalSpeed = (0..<d).map { trajectory.velocity(atSample: last, coordinate: $0) * normal[$0] }.reduce(0, +)
        #expect(abs(normalSpeed - speed) <= 1e-12, "\(normal): leaves at \(normalSpeed)")
    }

    /// A ball falling past a static one at 0.15 between centres (radii 0.1): they touch when the
    /// gap along the fall is √(0.2² − 0.15²), at t = √(2(1 − 0.1323)/9.81). At 2 samples a second
    /// the adaptive steps end past the pair, where it is apart again.
    @Test(arguments: [
        IntegrationMethod.dopri5(tolerance: 1e-9), .dop853(tolerance: 1e-9), .rk4(timeStep: 1.0 / 100), .exact
    ])
    func aGrazingHitInsideALongStepIsFound(_ method: IntegrationMethod) throws {
        let scene = try PhysicsScene(
            dimensions: 2,
            bodies: [
                PhysicsBody(name: "a", position: SIMD3(0.15, 1, 0), radius: 0.1),
                PhysicsBody(name: "b", position: SIMD3(0, 0, 0), radius: 0.1, isStatic: true)
            ],
            gravity: SIMD3(0, -9.81, 0), contacts: PhysicsScene.Contacts(restitution: 1))
        let trajectory = try Simulation(scene: scene).run(method: method, duration: 1, sampleRate: 2)
        let height = (0.2 * 0.2 - 0.15 * 0.15).squareRoot()
        let expected = (2 * (1 - height) / 9.81).squareRoot()
        #expect(
            trajectory.events.count == 1 && abs((trajectory.events.first?.time ?? 0) - expected) <= 1e-9,
            "\(method): \(trajectory.events.map(\.time)), expected \(expected)")
        Self.expectNothingInside(trajectory, scene, "\(method)")
    }

    /// A ball thrown up at 5 m/s under an elastic ceiling 1.2 m up: its arc meets the ceiling at
    /// t = (5 − √(25 − 2·9.81·1.2))/9.81 and would peak above it. At one sample a second the
    /// adaptive and exact methods cover the whole arc in one step, which ends below the ceiling
    /// again: the hit lies inside the step.
    @Test(arguments: integrators)
    func anArcThroughTheCeilingInsideALongStepIsFound(_ method: IntegrationMethod) throws {
        let scene = try PhysicsScene(
            dimensions: 1, bodies: [PhysicsBody(name: "ball", position: .zero, velocity: SIMD3(5, 0, 0))],
            gravity: SIMD3(-9.81, 0, 0),
            planes: [Plane(name: "ceiling", normal: SIMD3(-1, 0, 0), offset: -1.2, restitution: 1)])
        let trajectory = try Simulation(scene: scene).run(method: method, duration: 1.5, sampleRate: 1)
        Self.expectNothingInside(trajectory, scene, "\(method)")
        let expected = (5 - (25 - 2 * 9.81 * 1.2).squareRoot()) / 9.81
        let tolerance = method.name == "semi-implicit-euler" ? 1e-2 : 1e-9  // first order: not exact on a parabola
        #expect(
            trajectory.events.count == 1 && abs((trajectory.events.first?.time ?? 0) - expected) <= tolerance,
            "\(method): \(trajectory.events.map(\.time)), expected \(expected)")
    }

    /// Three balls in a column over the floor (a resting on it, b and c dropped from 0.5 and 1):
    /// b meets a after falling 0.2 m, at √(0.4/9.81) s, c falls onto the bouncing pair, and all
    /// three end at rest stacked at 0.1, 0.3 and 0.5, never inside each other or the floor. Over
    /// long steps c used to pass through b inside a step and stop the run.
    @Test(arguments: integrators)
    func aColumnOfThreeComesToRestStacked(_ method: IntegrationMethod) throws {
        let scene = try PhysicsScene(
            dimensions: 1,
            bodies: [
                PhysicsBody(name: "a", position: SIMD3(0.1, 0, 0), radius: 0.1),
                PhysicsBody(name: "b", mass: 2, position: SIMD3(0.5, 0, 0), radius: 0.1),
                PhysicsBody(name: "c", mass: 0.5, position: SIMD3(1, 0, 0), radius: 0.1)
            ],
            gravity: SIMD3(-9.81, 0, 0),
            planes: [Plane(name: "floor", normal: SIMD3(1, 0, 0), offset: 0, restitution: 0.5)],
            contacts: PhysicsScene.Contacts(restitution: 0.5))
        let trajectory = try Simulation(scene: scene).run(method: method, duration: 5, sampleRate: 1)
        Self.expectNothingInside(trajectory, scene, "\(method)")
        let last = trajectory.count - 1
        let ends = (0..<3).map { trajectory.position(atSample: last, coordinate: $0) }
        #expect(zip(ends, [0.1, 0.3, 0.5]).allSatisfy { abs($0 - $1) <= 1e-9 }, "\(method): ends at \(ends)")
        let first = try #require(trajectory.events.first)
        guard method.name != "semi-implicit-euler" else { return }
        #expect(
            first.body == "a" && first.collider == "b" && abs(first.time - (0.4 / 9.81).squareRoot()) <= 1e-9,
            "\(method): first \(first.body)–\(first.collider) at \(first.time)")
    }

    /// Balls of radius 0.1 at `heights` over the floor, restitution 0.5 there and between them.
    static func column(_ heights: [Double]) throws -> PhysicsScene {
        try PhysicsScene(
            dimensions: 1,
            bodies: try heights.indices.map {
                try PhysicsBody(name: "b\($0)", position: SIMD3(heights[$0], 0, 0), radius: 0.1)
            },
            gravity: SIMD3(-9.81, 0, 0),
            planes: [Plane(name: "floor", normal: SIMD3(1, 0, 0), offset: 0, restitution: 0.5)],
            contacts: PhysicsScene.Contacts(restitution: 0.5))
    }

    /// Nothing inside anything at any sample, and the bodies from `first` on at `heights` at the
    /// last, to 1e-9.
    static func expectStacked(
        _ trajectory: Trajectory, _ scene: PhysicsScene, at heights: [Double], from first: Int = 0, _ label: String
    ) {
        expectNothingInside(trajectory, scene, label)
        let last = trajectory.count - 1
        for (b, height) in heights.enumerated() {
            #expect(abs(trajectory.position(atSample: last, coordinate: first + b) - height) <= 1e-9, "\(label): b\(b)")
        }
    }

    /// Twenty balls at rest in a column on the floor, each touching the next, stay put at 0.1,
    /// 0.3, …, 3.9: the twenty contacts' forces hold each ball's weight and those above it.
    /// Gauss–Seidel sweeps alone, capped at 1,000, left the lowest ball sinking into the floor.
    @Test(arguments: integrators)
    func aColumnOfTwentyAtRestStaysStacked(_ method: IntegrationMethod) throws {
        let heights = (0..<20).map { 0.1 + 0.2 * Double($0) }
        let scene = try Self.column(heights)
        let trajectory = try Simulation(scene: scene).run(method: method, duration: 0.1, sampleRate: 10)
        Self.expectStacked(trajectory, scene, at: heights, "\(method)")
    }

    /// The same column standing on a static sphere in a scene without planes: every contact is
    /// between spheres.
    @Test(arguments: integrators)
    func aColumnOnAStaticSphereStaysStacked(_ method: IntegrationMethod) throws {
        let heights = (1...20).map { 0.2 * Double($0) }
        let scene = try PhysicsScene(
            dimensions: 1,
            bodies: [try PhysicsBody(name: "ground", position: .zero, radius: 0.1, isStatic: true)]
                + heights.indices.map {
                    try PhysicsBody(name: "b\($0)", position: SIMD3(heights[$0], 0, 0), radius: 0.1)
                },
            gravity: SIMD3(-9.81, 0, 0), contacts: PhysicsScene.Contacts(restitution: 0.5))
        let trajectory = try Simulation(scene: scene).run(method: method, duration: 0.1, sampleRate: 10)
        Self.expectStacked(trajectory, scene, at: heights, from: 1, "\(method)")
    }

    /// A ball dropped 0.9 m onto a column of twelve resting on the floor: it meets the top ball
    /// at √(1.8/9.81) s and, the column held by the floor through the impact (Moreau's law over the
    /// impact and the twelve resting contacts), bounces off it as off a wall: 9 impacts at e^k
    /// times √(2·9.81·0.9) m/s, the last slower than the rest velocity. All end at rest, stacked,
    /// none inside another or the floor. Passed down the column one pair at a time, the impulses
    /// did not die down, and the lowest ball used to be left moving into the floor.
    @Test(arguments: integrators)
    func aBallDroppedOnAColumnComesToRestOnTop(_ method: IntegrationMethod) throws {
        let heights = (0..<13).map { 0.1 + 0.2 * Double($0) }
        var start = heights
        start[12] += 0.9
        let scene = try Self.column(start)
        let trajectory = try Simulation(scene: scene).run(method: method, duration: 2, sampleRate: 10)
        Self.expectStacked(trajectory, scene, at: heights, "\(method)")
        let first = try #require(trajectory.events.first)
        guard method.name != "semi-implicit-euler" else { return }
        #expect(abs(first.time - (1.8 / 9.81).squareRoot()) <= 1e-9, "\(method): first impact at \(first.time)")
        Self.expectBouncesOnAHeldBall(trajectory, speed: (2 * 9.81 * 0.9).squareRoot(), "b11", "b12", "\(method)")
    }

    /// The impacts of `trajectory` are those of a ball bouncing on a held one (`body` on
    /// `collider`, restitution 0.5, rest velocity 0.01): the k-th at 0.5^k times the first
    /// `speed`, out at half that, until that half is below the rest velocity and it ends at rest.
    static func expectBouncesOnAHeldBall(
        _ trajectory: Trajectory, speed: Double, _ body: String, _ collider: String, _ label: String
    ) {
        let count = Int((log(speed / 0.01) / log(2)).rounded(.down)) + 1
        let bounces = trajectory.events.map { ($0.time, $0.body, $0.collider, $0.speedIn, $0.speedOut) }
        #expect(trajectory.events.count == count, "\(label): \(bounces)")
        for (k, event) in trajectory.events.enumerated() {
            let speedIn = speed * pow(0.5, Double(k))
            #expect(
                event.body == body && event.collider == collider && abs(event.speedIn - speedIn) <= 1e-9
                    && abs(event.speedOut - (k == count - 1 ? 0 : 0.5 * speedIn)) <= 1e-9,
                "\(label): \(bounces)")
        }
    }

    /// Random piles and boxes, 1-D to 3-D, with and without gravity: no body through a plane and
    /// no sphere pair overlapping, at any sample (and the run's own check raised no error).
    @Test(arguments: [1, 2, 3])
    func randomPilesAndBoxesKeepEveryBodyOutside(_ dimensions: Int) throws {
        var rng = SplitMix64(seed: 36 &+ UInt64(dimensions))
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        var runs = 0
        for trial in 0..<12 {
            let gravity = trial % 2 == 0, radius = 0.05
            var bodies: [PhysicsBody] = []
            while bodies.count < 2 + trial % 5 {
                let position = (0..<dimensions).map { _ in 0.1 + 0.8 * unit() }
                let apart = bodies.allSatisfy { body in
                    zip(body.position.sceneComponents(dimensions), position).map { ($0 - $1) * ($0 - $1) }.reduce(0, +)
                        .squareRoot() > 2 * radius
                        + 1e-3
                }
                guard apart else { continue }
                bodies.append(
                    try PhysicsBody(
                        name: "s\(bodies.count)", position: SIMD3(sceneComponents: position),
                        velocity: SIMD3(sceneComponents: (0..<dimensions).map { _ in 2 * unit() - 1 }), radius: radius))
            }
            var planes: [Plane] = []
            for axis in 0..<dimensions {
                var normal = [Double](repeating: 0, count: dimensions)
                normal[axis] = 1
                planes.append(
                    try Plane(
                        name: "low\(axis)", normal: SIMD3(sceneComponents: normal), offset: 0,
                        restitution: 0.3 + 0.7 * unit()))
                normal[axis] = -1
                planes.append(
                    try Plane(
                        name: "high\(axis)", normal: SIMD3(sceneComponents: normal), offset: -1,
                        restitution: 0.3 + 0.7 * unit()))
            }
            var g = [Double](repeating: 0, count: dimensions)
            if gravity { g[dimensions - 1] = -9.81 }
            let scene = try PhysicsScene(
                dimensions: dimensions, bodies: bodies, gravity: SIMD3(sceneComponents: g), planes: planes,
                contacts: PhysicsScene.Contacts(restitution: 0.3 + 0.7 * unit()))
            for method in [IntegrationMethod.dopri5(tolerance: 1e-9), .rk4(timeStep: 1e-3)] {
                let label = "\(dimensions)-D trial \(trial), \(method)"
                do {
                    let trajectory = try Simulation(scene: scene).run(method: method, duration: 1, sampleRate: 60)
                    Self.expectNothingInside(trajectory, scene, label)
                    runs += 1
                } catch SimulationError.tooManyEvents {
                    // Spheres pressed together by gravity in a pile: the stated event limit.
                } catch {
                    Issue.record("\(label): \(error); bodies \(bodies.map { ($0.position, $0.velocity) })")
                }
            }
        }
        #expect(runs >= 12, "\(runs) of 24 runs finished")
    }

    /// Twelve balls thrown into a 2-D box (floor and walls, restitution 0.5) settle into a pile in
    /// 5 s: nothing inside anything at any sample, every ball at rest at the end, and a bounded
    /// number of impacts, under accurate settings and coarse ones (DOP853 and dopri5 sampled at
    /// 10 Hz, RK4 at 12.3 ms, Verlet at 0.5 ms, semi-implicit Euler at 1 ms), where balls wedge
    /// between others, rest on each other, and slide down one another onto the floor.
    @Test(
        arguments: zip(
            [
                IntegrationMethod.rk4(timeStep: 1e-3), .dopri5(tolerance: 1e-9), .dopri5(tolerance: 1e-9),
                .dop853(tolerance: 1e-9), .dop853(tolerance: 1e-9), .adams(timeStep: 1e-3, order: 8),
                .verlet(timeStep: 5e-4), .rk4(timeStep: 0.0123), .semiImplicitEuler(timeStep: 1e-3)
            ], [60.0, 60, 10, 60, 10, 60, 60, 60, 60]))
    func twelveBallsThrownIntoABoxSettleIntoAPile(_ method: IntegrationMethod, _ sampleRate: Double) throws {
        let thrown: [(Double, Double, Double, Double)] = [
            (0.2903717016735131, 0.5353833802367615, -0.2600896669038415, 0.20784007719238895),
            (0.6005762432864432, 0.1524230873918505, -0.9736640168902517, 0.67493816419292),
            (0.3074832114624061, 0.2874647688373571, 0.9912896710209256, -0.05947298495510411),
            (0.769169161019511, 0.48108256695946794, 0.2781362810883239, -0.6987671519529521),
            (0.6078885266281507, 0.7944362457146374, 0.046362420766602686, 0.4825037124029805),
            (0.7065841970294539, 0.572879666345054, -0.39746468096857535, -0.9379764970605),
            (0.41597072320059514, 0.7407270167881826, -0.11075788789847874, 0.8711734434090421),
            (0.8030933282704333, 0.17796344778470177, -0.7280622795986622, -0.5660261175337253),
            (0.6013186326934432, 0.3408209587404043, 0.014485967658119048, -0.2282674823101949),
            (0.7851204531174045, 0.8927917158950521, 0.34254708432503644, -0.6738007560578605),
            (0.3279659695889642, 0.1507684617161835, 0.7078849768453603, 0.9796120298431625),
            (0.1708144744877827, 0.7404762570060015, -0.17907634530818228, -0.6984692510943808)
        ]
        let scene = try Self.pile(thrown)
        let trajectory = try Simulation(scene: scene).run(method: method, duration: 5, sampleRate: sampleRate)
        Self.expectNothingInside(trajectory, scene, "\(method)")
        let last = trajectory.count - 1
        let speed = (0..<24).map { abs(trajectory.velocity(atSample: last, coordinate: $0)) }.max() ?? 0
        #expect(speed <= 1e-9, "\(method): a ball still moves at \(speed) m/s after 5 s")
        #expect(trajectory.events.count <= 5_000, "\(method): \(trajectory.events.count) impacts")
        // A pair's event names its lower index as the body that hit, the other as what it hit.
        for event in trajectory.events {
            guard case .body(let other) = event.hit else { continue }
            #expect(event.bodyIndex < other, "\(method): b\(event.bodyIndex) hit b\(other) at t = \(event.time)")
        }
    }

    /// Three balls stacked in a box two balls wide: the two below touch each other and a wall
    /// each, the one above rests in their V. Its weight pushes them apart, which the walls hold or
    /// the push between them adds to (any push there ≥ 0, the walls' grown by as much, balances),
    /// so the contact forces have no single solution, only the accelerations (0). After a second
    /// every ball is where it was, within rounding's growth over the run (1e-12 m), and no faster
    /// than 1e-10 m/s (a second of gravity times the solve's relative residual, 1e-11).
    @Test(arguments: [
        IntegrationMethod.rk4(timeStep: 1e-3), .dopri5(tolerance: 1e-9), .semiImplicitEuler(timeStep: 1e-3)
    ])
    func aBallInTheVOfTwoWedgedBetweenWallsStandsStill(_ method: IntegrationMethod) throws {
        let r = 0.05, height = (4 * r * r - r * r).squareRoot()
        let places = [SIMD3(r, r, 0), SIMD3(3 * r, r, 0), SIMD3(2 * r, r + height, 0)]
        let bodies = try places.enumerated().map { i, x in try PhysicsBody(name: "b\(i)", position: x, radius: r) }
        let scene = try PhysicsScene(
            dimensions: 2, bodies: bodies, gravity: SIMD3(0, -9.81, 0),
            planes: [
                Plane(name: "floor", normal: SIMD3(0, 1, 0), offset: 0, restitution: 0.5),
                Plane(name: "left", normal: SIMD3(1, 0, 0), offset: 0, restitution: 0.5),
                Plane(name: "right", normal: SIMD3(-1, 0, 0), offset: -4 * r, restitution: 0.5)
            ],
            contacts: PhysicsScene.Contacts(restitution: 0.5))
        let trajectory = try Simulation(scene: scene).run(method: method, duration: 1, sampleRate: 60)
        let last = trajectory.count - 1
        for (b, x) in places.enumerated() {
            for axis in 0..<2 {
                let moved = abs(trajectory.position(atSample: last, coordinate: 2 * b + axis) - x[axis])
                #expect(moved <= 1e-12, "\(method): ball \(b) moved \(moved) m along axis \(axis)")
                let speed = abs(trajectory.velocity(atSample: last, coordinate: 2 * b + axis))
                #expect(speed <= 1e-10, "\(method): ball \(b) moves at \(speed) m/s along axis \(axis)")
            }
        }
    }

    /// The pile's box: a 2-D floor and walls 1 m apart (restitution 0.5), gravity 9.81, and balls
    /// of radius 0.05 at (x, y) moving at (vx, vy), contacts of restitution 0.5.
    static func pile(_ balls: [(Double, Double, Double, Double)]) throws -> PhysicsScene {
        let bodies = try balls.enumerated().map { i, ball in
            try PhysicsBody(
                name: "b\(i)", position: SIMD3(ball.0, ball.1, 0), velocity: SIMD3(ball.2, ball.3, 0), radius: 0.05)
        }
        return try PhysicsScene(
            dimensions: 2, bodies: bodies, gravity: SIMD3(0, -9.81, 0),
            planes: [
                Plane(name: "floor", normal: SIMD3(0, 1, 0), offset: 0, restitution: 0.5),
                Plane(name: "left", normal: SIMD3(1, 0, 0), offset: 0, restitution: 0.5),
                Plane(name: "right", normal: SIMD3(-1, 0, 0), offset: -1, restitution: 0.5)
            ],
            contacts: PhysicsScene.Contacts(restitution: 0.5))
    }

    /// Holding a resting contact (its sides' speed along its normal set to 0, momentum kept) also
    /// pushes a body it would close on: a row of three touching spheres of masses 1, 2 and 3,
    /// the first two resting on each other, the first moving at 0.3 m/s into the second. Held,
    /// the pair would move on at 0.1 m/s into the third, at rest; the three move on together at
    /// 0.05 m/s (momentum 0.3 over mass 6). A third already approaching, or parting faster than
    /// the pair, is left to the impact search: it keeps its speed, and the pair moves at 0.1 m/s.
    /// Tolerance 1e-15: the velocities' rounding through the contact solver's few operations.
    @Test func holdingARestingContactPushesWhatItWouldClose() throws {
        let r = 0.05
        func held(third: Double) throws -> [Double] {
            let bodies = try [(1.0, 0.0, 0.3), (2, 2 * r, 0), (3, 4 * r, third)].enumerated().map { i, body in
                try PhysicsBody(
                    name: "s\(i)", mass: body.0, position: SIMD3(body.1, 0, 0), velocity: SIMD3(body.2, 0, 0),
                    radius: r)
            }
            let scene = try PhysicsScene(
                dimensions: 1, bodies: bodies, contacts: PhysicsScene.Contacts(restitution: 0.5))
            var system = SceneSystem<SIMD4<Double>>(scene: scene)
            system.resting = [RestingContact(body: 0, on: 1)]
            var state = PhaseState<SIMD4<Double>>(position: .zero, velocity: .zero)
            for (b, body) in bodies.enumerated() {
                system.set(&state.position, body: b, to: body.position)
                system.set(&state.velocity, body: b, to: body.velocity)
            }
            Collisions.holdResting(system, &state, around: [0])
            return (0..<3).map { state.velocity[lane: $0] }
        }
        func expect(_ v: [Double], _ expected: [Double]) {
            #expect(zip(v, expected).allSatisfy { abs($0 - $1) <= 1e-15 }, "\(v) against \(expected)")
        }
        expect(try held(third: 0), [0.05, 0.05, 0.05])
        expect(try held(third: -0.2), [0.1, 0.1, -0.2])
        expect(try held(third: 0.5), [0.1, 0.1, 0.5])
    }

    /// A resting contact that a step's error left overlapping by o is moved back to touching by
    /// the smallest correction in the bodies' masses, pushing no body into what it touches:
    /// - two spheres of masses 1 and 3 part by 3o/4 and o/4 (inverse masses 1 and 1/3);
    /// - a sphere resting on the floor under another stays on it, and the upper one moves up by o;
    /// - a sphere merely touching a third (no resting contact) is pushed along with it: the two
    ///   move by −o/3 and the other by 2o/3, the least Σ m Δx² with the overlap closed and the
    ///   touching pair not overlapping.
    /// Velocities are left as they are. Tolerance 1e-15: the positions' rounding
    /// (an ulp of 0.15 is 2.8e-17) through the contact solver's few operations.
    @Test func overlapsOfRestingContactsCloseByMass() throws {
        let o = 1e-6, r = 0.05
        func closed(
            _ dimensions: Int, _ bodies: [PhysicsBody], planes: [Plane] = [], resting: [RestingContact]
        ) throws -> [Double] {
            let scene = try PhysicsScene(
                dimensions: dimensions, bodies: bodies, planes: planes,
                contacts: PhysicsScene.Contacts(restitution: 0.5))
            var system = SceneSystem<SIMD4<Double>>(scene: scene)
            system.resting = resting
            var state = PhaseState<SIMD4<Double>>(position: .zero, velocity: .zero)
            for (b, body) in bodies.enumerated() {
                system.set(&state.position, body: b, to: body.position)
                system.set(&state.velocity, body: b, to: body.velocity)
            }
            let velocity = state.velocity
            Collisions.closeGaps(system, &state)
            #expect(state.velocity == velocity)
            return (0..<bodies.count * dimensions).map { state.position[lane: $0] }
        }
        let pair = try closed(
            1,
            [
                PhysicsBody(name: "a", mass: 1, position: SIMD3(0, 0, 0), velocity: SIMD3(0.3, 0, 0), radius: r),
                PhysicsBody(name: "b", mass: 3, position: SIMD3(2 * r - o, 0, 0), velocity: SIMD3(0.2, 0, 0), radius: r)
            ], resting: [RestingContact(body: 0, on: 1)])
        #expect(abs(pair[0] - -0.75 * o) <= 1e-15 && abs(pair[1] - (2 * r - o + 0.25 * o)) <= 1e-15, "\(pair)")
        let stack = try closed(
            2,
            [
                PhysicsBody(name: "low", position: SIMD3(0.5, r, 0), radius: r),
                PhysicsBody(name: "high", position: SIMD3(0.5, 3 * r - o, 0), radius: r)
            ], planes: [Plane(name: "floor", normal: SIMD3(0, 1, 0), offset: 0, restitution: 0.5)],
            resting: [RestingContact(body: 0, plane: 0), RestingContact(body: 0, on: 1)])
        #expect(abs(stack[1] - r) <= 1e-15 && abs(stack[3] - 3 * r) <= 1e-15, "\(stack)")
        #expect(stack[0] == 0.5 && stack[2] == 0.5, "\(stack)")
        let row = try closed(
            1,
            [
                PhysicsBody(name: "a", position: SIMD3(0, 0, 0), radius: r),
                PhysicsBody(name: "b", position: SIMD3(2 * r - o, 0, 0), radius: r),
                PhysicsBody(name: "c", position: SIMD3(-2 * r, 0, 0), radius: r)
            ], resting: [RestingContact(body: 0, on: 1)])
        let expected = [-o / 3, 2 * r - o / 3, -2 * r - o / 3]
        #expect(zip(row, expected).allSatisfy { abs($0 - $1) <= 1e-15 }, "\(row) against \(expected)")
    }

    /// A row of four balls resting on a wall and on each other, each contact o inside: the least
    /// correction moves them out by o, 2o, 3o and 4o. A fifth ball, 3o beyond the last, is outside
    /// the correction's first reach (twice the deepest overlap) and would end o inside it; it
    /// joins in the next round and is pushed out by exactly o, the others as before. Tolerance
    /// 1e-15: the positions' rounding (an ulp of 0.45 is 5.6e-17) through the solver's operations.
    /// On the 68-ball pile this left a ball 7.5e-8 inside another, and semi-implicit Euler stopped.
    @Test func overlapsCloseWhereTheCorrectionPushesABallBeyondItsReach() throws {
        let o = 1e-6, r = 0.05
        let starts = [r - o, 3 * r - 2 * o, 5 * r - 3 * o, 7 * r - 4 * o, 9 * r - o]
        let scene = try PhysicsScene(
            dimensions: 1,
            bodies: try starts.enumerated().map {
                try PhysicsBody(name: "b\($0)", position: SIMD3($1, 0, 0), radius: r)
            },
            planes: [Plane(name: "wall", normal: SIMD3(1, 0, 0), offset: 0, restitution: 0.5)],
            contacts: PhysicsScene.Contacts(restitution: 0.5))
        var system = SceneSystem<SIMD8<Double>>(scene: scene)
        system.resting = [
            RestingContact(body: 0, plane: 0), RestingContact(body: 0, on: 1), RestingContact(body: 1, on: 2),
            RestingContact(body: 2, on: 3)
        ]
        var state = PhaseState<SIMD8<Double>>(position: .zero, velocity: .zero)
        for (b, x) in starts.enumerated() { state.position[b] = x }
        Collisions.closeGaps(system, &state)
        let expected = zip(starts, [o, 2 * o, 3 * o, 4 * o, o]).map { $0 + $1 }
        let end = (0..<5).map { state.position[$0] }
        #expect(zip(end, expected).allSatisfy { abs($0 - $1) <= 1e-15 }, "\(end) against \(expected)")
    }

    /// The 12-ball pile near 1.97 s under semi-implicit Euler at 0.1 ms, 22 contacts at rest, one
    /// pair (6 on 10) 2.75e-8 inside. Moving it out pushes 10 into what it rests on, and so on
    /// down the pile: the solver's guess of which contacts press takes one more contact a round,
    /// ten or eleven rounds here. Every contact ends touching (1e-9, the touching rule), each ball
    /// moved by at most 1e-7 (the overlaps' size, not a rearrangement).
    @Test func overlapsCloseWhereThePushTravelsThroughAPile() throws {
        let positions: [(Double, Double)] = [
            (0.15000000000000002, 0.050000000000001994), (0.350000000784203, 0.050000000000000024),
            (0.450000000784203, 0.05), (0.95, 0.049999999999999996),
            (0.4987112754574974, 0.13733393895497592), (0.6500000007842031, 0.05000000000000002),
            (0.2003272486021112, 0.13679062269285752), (0.750000000784203, 0.049999999999961804),
            (0.550000000784203, 0.05000000000000002), (0.8500000003788934, 0.05000900343931574),
            (0.250000000784203, 0.05), (0.05, 0.05000000000000024)
        ]
        let resting = [
            RestingContact(body: 1, plane: 0), RestingContact(body: 11, plane: 0), RestingContact(body: 3, plane: 0),
            RestingContact(body: 0, plane: 0), RestingContact(body: 7, plane: 0), RestingContact(body: 8, plane: 0),
            RestingContact(body: 5, plane: 0), RestingContact(body: 2, plane: 0), RestingContact(body: 2, on: 4),
            RestingContact(body: 0, on: 11), RestingContact(body: 11, plane: 1), RestingContact(body: 0, on: 10),
            RestingContact(body: 5, on: 7), RestingContact(body: 3, on: 9), RestingContact(body: 7, on: 9),
            RestingContact(body: 5, on: 8), RestingContact(body: 3, plane: 2), RestingContact(body: 1, on: 2),
            RestingContact(body: 10, plane: 0), RestingContact(body: 1, on: 10), RestingContact(body: 2, on: 8),
            RestingContact(body: 6, on: 10)
        ]
        var system = SceneSystem<FlatVector>(scene: try Self.pile(positions.map { ($0.0, $0.1, 0, 0) }))
        system.resting = resting
        let start = positions.flatMap { [$0.0, $0.1] }
        var state = PhaseState(position: FlatVector(start), velocity: FlatVector(zeros: 24))
        func deepest(_ x: [Double]) -> Double {
            var depth = 0.0
            for a in 0..<12 {
                depth = max(depth, 0.05 - x[2 * a + 1], 0.05 - x[2 * a], x[2 * a] + 0.05 - 1)
                for b in (a + 1)..<12 {
                    let (dx, dy) = (x[2 * a] - x[2 * b], x[2 * a + 1] - x[2 * b + 1])
                    depth = max(depth, 0.1 - (dx * dx + dy * dy).squareRoot())
                }
            }
            return depth
        }
        #expect(deepest(start) > 2.7e-8)
        Collisions.closeGaps(system, &state)
        let end = state.position.lanes
        #expect(deepest(end) <= 1e-9, "still \(deepest(end)) inside")
        let moved = zip(start, end).map { abs($0 - $1) }.max() ?? 0
        #expect(moved <= 1e-7, "a ball moved by \(moved)")
    }

    /// A ball set sliding at v0 = 0.5 m/s over the top of a fixed sphere (centres L = 0.2 m
    /// apart, no friction) stays on it while gravity's pull along the radius exceeds the turn's
    /// v²/L, and leaves it where they are equal: cos θ = (2 + v0²/(gL)) / 3 (energy:
    /// v² = v0² + 2gL(1 − cos θ)). Before that angle the gap stays 0; past it, the ball is in
    /// flight. Its force used to hold only the radial acceleration at 0 (not −v²/L), and the ball
    /// floated off at once. Methods accurate to 1e-9 at 1 kHz samples (the first-order ones drift
    /// off the surface by their own error).
    @Test(arguments: [
        IntegrationMethod.dop853(tolerance: 1e-12), .dopri5(tolerance: 1e-9), .rk4(timeStep: 1e-3),
        .adams(timeStep: 1e-3, order: 8)
    ])
    func aBallSlidingOverASphereLeavesItWhereGravityNoLongerHoldsItOn(_ method: IntegrationMethod) throws {
        let slide = try Self.slideOverASphere(method)
        var (held, flying) = (0, 0)
        for (distance, cosine) in slide.samples {
            if cosine > slide.leaving + 1e-3 {
                held += 1
                #expect(abs(distance - 0.2) <= 1e-9, "\(method): \(distance - 0.2) off at cos θ = \(cosine)")
            } else if cosine < slide.leaving - 2e-2 {
                flying += 1
                #expect(distance - 0.2 > 1e-6, "\(method): still on the sphere at cos θ = \(cosine)")
            }
        }
        #expect(held > 100 && flying > 100 && slide.impacts == 0, "\(held), \(flying), \(slide.impacts)")
    }

    /// The same slide under the first- and second-order fixed steps at 1 ms: the run goes through,
    /// the ball never sinks into the sphere (beyond rounding), and while held it is lifted off it
    /// by at most what an explicit step's chord adds, h²v²/(2L) a step at the fastest speed it
    /// reaches there, v² = v0² + 2gL(1 − cos θ) at the leaving angle.
    @Test(arguments: [
        IntegrationMethod.semiImplicitEuler(timeStep: 1e-3), .verlet(timeStep: 1e-3), .euler(timeStep: 1e-3)
    ])
    func aBallSlidingOverASphereUnderALowOrderStepStaysOnIt(_ method: IntegrationMethod) throws {
        let slide = try Self.slideOverASphere(method), (length, h) = (0.2, 1e-3)
        let fastest = 0.5 * 0.5 + 2 * 9.81 * length * (1 - slide.leaving)
        var (held, lift) = (0, 0.0)
        for (i, (distance, cosine)) in slide.samples.enumerated() {
            #expect(distance - length >= -1e-12, "\(method): \(length - distance) inside at sample \(i)")
            if cosine > slide.leaving + 1e-3 {
                held += 1
                lift = max(lift, distance - length)
            }
        }
        let bound = Double(held) * h * h * fastest / (2 * length)
        #expect(held > 100 && lift <= bound, "\(method): \(held) samples held, lifted \(lift) against \(bound)")
    }

    /// The slide both tests run: a ball set sliding at v0 = 0.5 m/s over the top of a fixed sphere,
    /// centres L = 0.2 m apart, g = 9.81, 0.5 s at 1 kHz. Each sample's distance between the
    /// centres and cos θ from the vertical; the cosine where it leaves, (2 + v0²/(gL)) / 3.
    static func slideOverASphere(_ method: IntegrationMethod) throws -> (
        samples: [(distance: Double, cosine: Double)], leaving: Double, impacts: Int
    ) {
        let (v0, g, length) = (0.5, 9.81, 0.2)
        let scene = try PhysicsScene(
            dimensions: 2,
            bodies: [
                PhysicsBody(name: "dome", position: .zero, radius: 0.1, isStatic: true),
                PhysicsBody(name: "ball", position: SIMD3(0, length, 0), velocity: SIMD3(v0, 0, 0), radius: 0.1)
            ],
            gravity: SIMD3(0, -g, 0), contacts: PhysicsScene.Contacts(restitution: 0.5))
        let trajectory = try Simulation(scene: scene).run(method: method, duration: 0.5, sampleRate: 1000)
        let samples = (0..<trajectory.count).map { i in
            let x = trajectory.position(atSample: i, coordinate: 2), y = trajectory.position(atSample: i, coordinate: 3)
            let distance = (x * x + y * y).squareRoot()
            return (distance: distance, cosine: y / distance)
        }
        return (samples, (2 + v0 * v0 / (g * length)) / 3, trajectory.events.count)
    }

    /// A ball sliding on a floor, pulled up by a spring that lengthens as it slides (rest length
    /// 0.5, anchored 1 m above its start), leaves the floor after about 0.29 s. Adams steps at
    /// 0.01 s and the run samples at 1 kHz: the samples inside the step where the contact ends
    /// come from its interpolant, within 1e-4 of DOP853 at 1e-12 (they were the step's end, up
    /// to 0.09 away: the restart that ended the contact came before the samples).
    @Test func samplesInTheStepWhereAContactEndsAreInterpolated() throws {
        let scene = try PhysicsScene(
            dimensions: 2,
            bodies: [PhysicsBody(name: "ball", position: SIMD3(0, 0.1, 0), velocity: SIMD3(4, 0, 0), radius: 0.1)],
            springs: [SpringForce(.anchor(body: 0, at: SIMD3(0, 1.1, 0)), stiffness: 15, restLength: 0.5)],
            gravity: SIMD3(0, -9.81, 0),
            planes: [Plane.floor(dimensions: 2, restitution: 0.5)])
        let simulation = Simulation(scene: scene)
        let adams = try simulation.run(method: .adams(timeStep: 0.01, order: 8), duration: 0.6, sampleRate: 1000)
        let reference = try simulation.run(method: .dop853(tolerance: 1e-12), duration: 0.6, sampleRate: 1000)
        #expect(reference.position(atSample: reference.count - 1, coordinate: 1) > 0.101, "the ball leaves the floor")
        var worst = 0.0
        for i in 0..<reference.count {
            for c in 0..<2 {
                worst = max(
                    worst,
                    abs(adams.position(atSample: i, coordinate: c) - reference.position(atSample: i, coordinate: c)))
            }
        }
        #expect(worst <= 1e-4, "\(worst)")
    }
}

/// The exact integrator on scenes of many bodies (no springs): every body on its arc between
/// impacts, the impacts located on the exact motion, so its collision sequence is the reference
/// the other integrators are checked against.
struct ExactSceneTests {
    /// n³ elastic spheres of `radius`, `spacing` apart on a grid centred in the box [−1, 1]³, with
    /// random velocities (seeded).
    static func box(
        gravity: Double, perSide n: Int = 3, spacing: Double = 0.6, radius: Double = 0.15, seed: UInt64 = 4
    ) throws -> PhysicsScene {
        var rng = SplitMix64(seed: seed)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) * 2 - 1 }
        var bodies: [PhysicsBody] = []
        for i in 0..<n {
            for j in 0..<n {
                for k in 0..<n {
                    bodies.append(
                        try PhysicsBody(
                            name: "s\(bodies.count)",
                            position: SIMD3(
                                sceneComponents: [i, j, k].map { spacing * (Double($0) - Double(n - 1) / 2) }),
                            velocity: SIMD3(unit(), unit(), unit()), radius: radius))
                }
            }
        }
        var planes: [Plane] = []
        for axis in 0..<3 {
            for sign in [1.0, -1.0] {
                var normal = [0.0, 0, 0]
                normal[axis] = sign
                planes.append(
                    try Plane(
                        name: "wall\(planes.count)", normal: SIMD3(sceneComponents: normal), offset: -1, restitution: 1)
                )
            }
        }
        return try PhysicsScene(
            dimensions: 3, bodies: bodies, gravity: SIMD3(0, 0, -gravity), planes: planes,
            contacts: PhysicsScene.Contacts(restitution: 1), restVelocity: 0)
    }

    /// Kinetic plus potential energy of every sample.
    static func energies(_ trajectory: Trajectory, gravity: Double) -> [Double] {
        (0..<trajectory.count).map { i in
            trajectory.scene.bodies.indices.map { b in
                let v = (0..<3).map { trajectory.velocity(atSample: i, coordinate: 3 * b + $0) }
                return 0.5 * v.map { $0 * $0 }.reduce(0, +) + gravity
                    * trajectory.position(atSample: i, coordinate: 3 * b + 2)
            }.reduce(0, +)
        }
    }

    @Test(arguments: [0.0, 9.81])
    func theBoxKeepsItsEnergyAndTheOthersFollowItsCollisionSequence(_ gravity: Double) throws {
        let scene = try Self.box(gravity: gravity)
        let exact = try Simulation(scene: scene).run(method: .exact, duration: 2, sampleRate: 60)
        let energy = Self.energies(exact, gravity: gravity)
        #expect(
            energy.allSatisfy { abs($0 - energy[0]) <= 1e-12 * abs(energy[0]) },
            "energy \(energy.min()!)…\(energy.max()!)")
        #expect(exact.events.count >= 40, "\(exact.events.count) impacts")
        ContactTests.expectNothingInside(exact, scene, "exact")
        // Chaos separates the runs in time: the first 20 impacts, each within 1e-6 s.
        for method in [IntegrationMethod.dopri5(tolerance: 1e-12), .dop853(tolerance: 1e-12)] {
            let other = try Simulation(scene: scene).run(method: method, duration: 2, sampleRate: 60)
            for (a, b) in zip(exact.events, other.events).prefix(20) {
                #expect(
                    a.body == b.body && a.collider == b.collider && abs(a.time - b.time) <= 1e-6,
                    "\(method): \(b.body)–\(b.collider) at \(b.time), exact \(a.body)–\(a.collider) at \(a.time)")
            }
        }
    }

    /// 216 elastic spheres in a box without gravity, run by `exact` impact by impact (an event
    /// queue): the energy to 1e-12, nothing inside a wall or another sphere, and the collision
    /// sequence of dop853 at 1e-12, a stepper, until chaos separates the runs (its first 150
    /// impacts, each within 1e-6 s).
    @Test func eventDrivenBoxFollowsTheStepper() throws {
        let scene = try Self.box(gravity: 0, perSide: 6, spacing: 0.3, radius: 0.06, seed: 11)
        let exact = try Simulation(scene: scene).run(method: .exact, duration: 1, sampleRate: 30)
        let stepped = try Simulation(scene: scene).run(method: .dop853(tolerance: 1e-12), duration: 1, sampleRate: 30)
        #expect(exact.events.count >= 300 && exact.steps == exact.events.count, "\(exact.events.count) impacts")
        let energy = Self.energies(exact, gravity: 0)
        #expect(energy.allSatisfy { abs($0 - energy[0]) <= 1e-12 * energy[0] }, "\(energy.min()!)…\(energy.max()!)")
        ContactTests.expectNothingInside(exact, scene, "exact")
        for (a, b) in zip(exact.events, stepped.events).prefix(150) {
            #expect(
                a.body == b.body && a.collider == b.collider && abs(a.time - b.time) <= 1e-6,
                "dop853: \(b.body)–\(b.collider) at \(b.time), exact \(a.body)–\(a.collider) at \(a.time)")
        }
    }

    /// Two spheres' meeting time in closed form: head-on, grazing, missing, separating, touching.
    @Test func meetingTimeIsTheSmallerRoot() throws {
        // 2 apart along x, closing at 1: they meet when 2 − s = reach.
        #expect(ContactTime.meeting(SIMD3(2, 0, 0), SIMD3(-1, 0, 0), 0.5) == 1.5)
        // Offset by 0.3 sideways: |(2 − s, 0.3)| = 0.5 at s = 2 − 0.4.
        #expect(abs(ContactTime.meeting(SIMD3(2, 0.3, 0), SIMD3(-1, 0, 0), 0.5)! - 1.6) <= 1e-15)
        #expect(ContactTime.meeting(SIMD3(2, 0.6, 0), SIMD3(-1, 0, 0), 0.5) == nil)  // passes by
        #expect(ContactTime.meeting(SIMD3(2, 0, 0), SIMD3(1, 0, 0), 0.5) == nil)  // moving apart
        #expect(ContactTime.meeting(SIMD3(0.5, 0, 0), SIMD3(-1, 0, 0), 0.5) == 0)  // touching, closing
        #expect(ContactTime.meeting(SIMD3(0.5, 0, 0), SIMD3(0, 1, 0), 0.5) == nil)  // touching, sliding
        // Closing at 2e300: |u|² overflows unless scaled; they meet after (1 − 0.2)/2e300 s.
        let fast = try #require(ContactTime.meeting(SIMD3(1, 0, 0), SIMD3(-2e300, 0, 0), 0.2))
        #expect(abs(fast - 0.8 / 2e300) <= 1e-15 * fast)
        // 1e308 apart at 1e308 (reach 1e307): |d|² overflows unless scaled too; they meet at 0.9 s.
        let far = try #require(ContactTime.meeting(SIMD3(-1e308, 0, 0), SIMD3(1e308, 0, 0), 1e307))
        #expect(abs(far - 0.9) <= 1e-15)
    }
}
