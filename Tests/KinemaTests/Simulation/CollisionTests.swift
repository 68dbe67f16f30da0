import Foundation
import Testing

@testable import Kinema

struct DropTests {
    static let methods: [IntegrationMethod] = [
        .dopri5(tolerance: 1e-12), .dop853(tolerance: 1e-12), .adams(timeStep: 1e-3, order: 8), .exact
    ]

    /// h = 1, g = 9.81, e = 0.8: impacts at t_n = t1·(1 + 2e(1 − e^(n−1))/(1 − e)), rest near
    /// T = t1·(1 + e)/(1 − e) = 4.0637 s, never below the floor by more than 1e-12.
    @Test(arguments: methods)
    func impactTimesFollowTheGeometricSeries(_ method: IntegrationMethod) throws {
        let g = 9.81, e = 0.8
        let t1 = (2 / g).squareRoot()
        let trajectory = try Simulation(scene: PhysicsScene.drop(height: 1, gravity: g, restitution: e))
            .run(method: method, duration: 5, sampleRate: 1000)
        let impacts = trajectory.events
        #expect(impacts.count > 20)
        for (i, event) in impacts.enumerated() where event.speedOut > 0 {
            let n = Double(i + 1)
            let expected = t1 * (1 + 2 * e * (1 - pow(e, n - 1)) / (1 - e))
            #expect(abs(event.time - expected) <= 1e-9, "impact \(i + 1): \(event.time) vs \(expected)")
        }
        let rest = try #require(impacts.last)
        #expect(rest.speedOut == 0)
        let restTime = t1 * (1 + e) / (1 - e)
        // The last bounce allowed by the rest velocity 0.01 ends within 2·0.01/g of T.
        #expect(abs(rest.time - restTime) <= 2 * 0.01 / g / (1 - e), "rests at \(rest.time), T = \(restTime)")
        for i in 0..<trajectory.count { #expect(trajectory.position(atSample: i) >= -1e-12) }
        #expect(trajectory.position(atSample: trajectory.count - 1) == 0)
    }

    /// Penner's bounceOut is 1 − x(t) for a ball dropped from 1 with g = 121/8 and e = 1/2,
    /// simulated here (impacts located on the integrator's dense output), at 10,001 points.
    @Test(arguments: methods)
    func pennersBounceIsAPhysicalDrop(_ method: IntegrationMethod) throws {
        let trajectory = try Simulation(scene: PhysicsScene.drop(height: 1, gravity: 121.0 / 8, restitution: 0.5))
            .run(method: method, duration: 1, sampleRate: 10_000)
        #expect(trajectory.count == 10_001)
        let bounce = PennerEasing(.bounce, .out)
        for i in 0..<trajectory.count {
            let t = trajectory.times[i]
            #expect(abs(1 - trajectory.position(atSample: i) - bounce.value(at: t)) <= 1e-12, "t = \(t)")
        }
        let impacts = trajectory.events.map(\.time)
        for (found, expected) in zip(impacts, [4.0 / 11, 8.0 / 11, 10.0 / 11]) {
            #expect(abs(found - expected) <= 1e-12)
        }
    }

    @Test(arguments: [0.999, 0.0])
    func zenoEndsInRestingContact(restitution: Double) throws {
        let scene = try PhysicsScene.drop(height: 1, restitution: restitution)
        let t1 = (2 / 9.81).squareRoot()
        let duration = restitution == 0 ? 2 : t1 * (1 + restitution) / (1 - restitution) + 1
        let trajectory = try Simulation(scene: scene).run(
            method: .dopri5(tolerance: 1e-9), duration: duration, sampleRate: 60)
        #expect(trajectory.events.last?.speedOut == 0)
        #expect(
            trajectory.position(atSample: trajectory.count - 1) == 0
                && trajectory.velocity(atSample: trajectory.count - 1) == 0)
        for i in 0..<trajectory.count { #expect(trajectory.position(atSample: i) >= -1e-12) }
        if restitution == 0 { #expect(trajectory.events.count == 1) }
    }

    @Test func aBallAtRestOnTheFloorStaysThere() throws {
        let trajectory = try Simulation(scene: PhysicsScene.drop(height: 0)).run(
            method: .rk4(timeStep: 0.01), duration: 1)
        #expect(trajectory.events.isEmpty)
        for i in 0..<trajectory.count {
            #expect(trajectory.position(atSample: i) == 0 && trajectory.velocity(atSample: i) == 0)
        }
    }

    @Test func zeroGravityFloats() throws {
        let trajectory = try Simulation(scene: PhysicsScene.drop(height: 1, gravity: 0)).run(
            method: .dopri5(tolerance: 1e-9), duration: 3)
        #expect(trajectory.events.isEmpty)
        for i in 0..<trajectory.count { #expect(trajectory.position(atSample: i) == 1) }
    }

    @Test func fixedStepMethodsBounceToo() throws {
        let trajectory = try Simulation(scene: PhysicsScene.drop(height: 1, gravity: 121.0 / 8, restitution: 0.5))
            .run(method: .rk4(timeStep: 1e-3), duration: 1, sampleRate: 1000)
        // RK4 is exact on a parabola and the Hermite interpolant is exact on cubics.
        for (found, expected) in zip(trajectory.events.map(\.time), [4.0 / 11, 8.0 / 11, 10.0 / 11]) {
            #expect(abs(found - expected) <= 1e-12)
        }
    }
}

struct SceneTests {
    /// Two equal balls on a line, one moving into the other with e = 1: they exchange velocities.
    @Test func elasticHeadOnCollisionExchangesVelocities() throws {
        let a = try PhysicsBody(name: "a", position: SIMD3(0, 0, 0), velocity: SIMD3(1, 0, 0), radius: 0.1)
        let b = try PhysicsBody(name: "b", position: SIMD3(1, 0, 0), velocity: SIMD3(0, 0, 0), radius: 0.1)
        let scene = try PhysicsScene(dimensions: 2, bodies: [a, b], contacts: .init(restitution: 1))
        let trajectory = try Simulation(scene: scene).run(
            method: .dopri5(tolerance: 1e-10), duration: 2, sampleRate: 10)
        let event = try #require(trajectory.events.first)
        #expect(abs(event.time - 0.8) <= 1e-9)
        let last = trajectory.count - 1
        #expect(
            abs(trajectory.velocity(atSample: last, coordinate: 0)) <= 1e-12
                && abs(trajectory.velocity(atSample: last, coordinate: 2) - 1) <= 1e-12)
    }

    /// Newton's cradle: four equal balls laid side by side (their gaps 0 within rounding) and one
    /// or two more swung in at 1 unit/s with e = 1. The impulse runs down the row at one instant,
    /// one impact per touching pair, and as many balls leave the far end as came in; the balls at
    /// rest side by side are not impacts (they were: a zero-speed event after every restart, until
    /// 200,000 events stopped the run, 5 to 12 s).
    @Test(
        arguments: [
            IntegrationMethod.dopri5(tolerance: 1e-10), .dop853(tolerance: 1e-10), .rk4(timeStep: 1e-3), .exact
        ],
        [1, 2]
    )
    func newtonsCradleSendsOutAsManyBallsAsCameIn(_ method: IntegrationMethod, swung: Int) throws {
        let r = 0.1
        // Swung balls from −0.5 (the first touching the row at t = 0.3), the row from 0 to 0.6.
        let swungIn = (0..<swung).map {
            try! PhysicsBody(
                name: "in\($0)", position: SIMD3(-0.5 - 2 * r * Double($0), 0, 0), velocity: SIMD3(1, 0, 0), radius: r)
        }
        let row = (0..<4).map {
            try! PhysicsBody(name: "row\($0)", position: SIMD3(2 * r * Double($0), 0, 0), radius: r)
        }
        let scene = try PhysicsScene(dimensions: 1, bodies: swungIn + row, contacts: .init(restitution: 1))
        let start = Date()
        let trajectory = try Simulation(scene: scene).run(method: method, duration: 2, sampleRate: 10)
        #expect(Date().timeIntervalSince(start) < 5, "no storm of events")
        #expect(
            trajectory.events.count == 4 * swung,
            "\(trajectory.events.map { ($0.time, $0.body, $0.collider, $0.speedIn) })")
        for event in trajectory.events {
            #expect(abs(event.time - 0.3) <= 1e-9 && abs(event.speedIn - 1) <= 1e-9 && abs(event.speedOut - 1) <= 1e-9)
        }
        // At 2 s: the swung balls and the first of the row at rest where the impacts left them,
        // the last `swung` balls of the row 1.7 s on at 1 unit/s.
        let last = trajectory.count - 1
        for (i, body) in scene.bodies.enumerated() {
            let leaves = i >= scene.bodies.count - swung
            let x0 = body.position[0], rest = i < swung ? x0 + 0.3 : x0
            #expect(
                abs(trajectory.position(atSample: last, coordinate: i) - (leaves ? x0 + 1.7 : rest)) <= 1e-9,
                "\(body.name)")
            #expect(abs(trajectory.velocity(atSample: last, coordinate: i) - (leaves ? 1 : 0)) <= 1e-9, "\(body.name)")
        }
    }

    /// A 2-D projectile bouncing on a floor with friction keeps its horizontal motion between
    /// impacts and loses μ(1+e)·v_n of it at each.
    @Test func frictionReducesTangentialSpeedAtImpact() throws {
        let ball = try PhysicsBody(name: "ball", position: SIMD3(0, 1, 0), velocity: SIMD3(2, 0, 0))
        let floor = try Plane.floor(dimensions: 2, restitution: 0.5, friction: 0.1)
        let scene = try PhysicsScene(dimensions: 2, bodies: [ball], gravity: SIMD3(0, -9.81, 0), planes: [floor])
        let trajectory = try Simulation(scene: scene).run(method: .exact, duration: 0.6, sampleRate: 100)
        let impact = try #require(trajectory.events.first)
        let vn = (2 * 9.81).squareRoot()
        #expect(abs(impact.speedIn - vn) <= 1e-9)
        let last = trajectory.count - 1
        #expect(abs(trajectory.velocity(atSample: last, coordinate: 0) - (2 - 0.1 * 1.5 * vn)) <= 1e-9)
    }

    @Test func invalidScenesAreRejected() throws {
        #expect(throws: KinemaError.self) { try PhysicsScene.drop(restitution: 1.5) }
        #expect(throws: KinemaError.self) { try PhysicsScene.drop(restitution: -0.1) }
        #expect(throws: KinemaError.self) { try PhysicsScene.drop(height: -1) }
        #expect(throws: KinemaError.self) { try PhysicsBody(name: "x", mass: 0, position: SIMD3(0, 0, 0)) }
        #expect(throws: KinemaError.self) { try PhysicsBody(name: "x", mass: -2, position: SIMD3(0, 0, 0)) }
        #expect(throws: KinemaError.self) {
            try PhysicsScene(dimensions: 4, bodies: [PhysicsBody(name: "x", position: SIMD3(0, 0, 0))])
        }
        #expect(throws: KinemaError.self) {
            try Simulation(scene: PhysicsScene.drop()).run(method: .rk4(timeStep: 0), duration: 1)
        }
        #expect(throws: KinemaError.self) {
            try Simulation(scene: PhysicsScene.drop()).run(method: .rk4(timeStep: 0.01), duration: .nan)
        }
        #expect(throws: KinemaError.self) {
            try Simulation(scene: PhysicsScene.drop()).run(method: .dopri5(tolerance: -1), duration: 1)
        }
    }

    /// A plane's normal is any finite, non-zero direction, however large or small its components:
    /// (1e308, 1e308) (whose squares overflow) and (1e-320, 0) (whose square underflows) are the
    /// diagonal and the x axis, normalized to within an ulp; zero and non-finite normals are refused,
    /// naming the vector in the scene's units.
    @Test func planeNormalsOfAnySizeAreDirections() throws {
        let half = 0.5.squareRoot()
        let cases: [(SIMD3<Double>, SIMD3<Double>)] = [
            (SIMD3(1e308, 1e308, 0), SIMD3(half, half, 0)), (SIMD3(1e-320, 0, 0), SIMD3(1, 0, 0)),
            (SIMD3(0, -1e-200, 0), SIMD3(0, -1, 0)), (SIMD3(0, 3, 4), SIMD3(0, 0.6, 0.8))
        ]
        for (normal, unit) in cases {
            let plane = try Plane(name: "p", normal: normal, restitution: 0.5), miss = plane.normal - unit
            #expect(max(abs(miss.x), abs(miss.y), abs(miss.z)) <= 2.3e-16, "\(normal): \(plane.normal)")
        }
        for normal in [SIMD3<Double>.zero, SIMD3(.infinity, 0, 0), SIMD3(.nan, 1, 0)] {
            #expect(throws: KinemaError.self) { try Plane(name: "p", normal: normal, restitution: 0.5) }
        }
        do {
            _ = try PhysicsBody(name: "pin", position: .zero, velocity: SIMD3(1, 0, 0), isStatic: true)
            Issue.record("a static body with a velocity was accepted")
        } catch let error as KinemaError {
            #expect(error.description.contains("(1.0, 0.0, 0.0)") && !error.description.contains("SIMD3"), "\(error)")
        }
    }
}

struct ManyBodyTests {
    /// 20 bodies in 3-D (60 coordinates, in flat storage): each on its own damped
    /// anchor spring, so every coordinate follows its own analytic oscillator.
    @Test func twentyIndependentOscillatorsIn3D() throws {
        var bodies: [PhysicsBody] = [], springs: [SpringForce] = []
        for i in 0..<20 {
            let d = Double(i)
            bodies.append(
                try PhysicsBody(
                    name: "b\(i)", mass: 1 + 0.1 * d, position: SIMD3(d, -d, 0.5 * d), velocity: SIMD3(1, 0, -1)))
            springs.append(
                try SpringForce(.anchor(body: i, at: SIMD3(0, 1, 2)), stiffness: 50 + 10 * d, damping: 0.5 + 0.2 * d))
        }
        let scene = try PhysicsScene(dimensions: 3, bodies: bodies, springs: springs)
        #expect(scene.coordinateCount == 60)
        let trajectory = try Simulation(scene: scene).run(
            method: .dopri5(tolerance: 1e-11), duration: 2, sampleRate: 50)
        for (i, body) in bodies.enumerated() {
            for axis in 0..<3 {
                let exact = try DampedHarmonicOscillator(
                    mass: body.mass, stiffness: springs[i].stiffness, damping: springs[i].damping,
                    target: [0.0, 1, 2][axis], initialPosition: body.position[axis],
                    initialVelocity: body.velocity[axis])
                for s in 0..<trajectory.count {
                    #expect(
                        abs(
                            trajectory.position(atSample: s, coordinate: 3 * i + axis)
                                - exact.position(at: trajectory.times[s])) <= 1e-8)
                }
            }
        }
    }
}
