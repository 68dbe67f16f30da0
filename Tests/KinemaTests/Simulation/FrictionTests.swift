import Testing

@_spi(Engine) @testable import Kinema

/// Coulomb friction on a body resting on a plane, against closed forms: held still while what
/// pulls it along the plane is at most μ times the normal force; sliding, slowed at μ·g until it
/// stops where v₀²/(2μg) puts it, and held there.
struct FrictionTests {
    /// A ball on a floor (μ = 0.5, so friction holds up to 4.905 N) pulled sideways by a spring
    /// with 3 N: it does not move at all. The smoothed friction it replaced let it creep at
    /// 6e-7 m/s, and the stiffness of the smoothing cost the adaptive methods 1e-6 s steps.
    @Test(arguments: [
        IntegrationMethod.dopri5(tolerance: 1e-9), .dop853(tolerance: 1e-9), .rk4(timeStep: 1e-3),
        .semiImplicitEuler(timeStep: 1e-3), .verlet(timeStep: 1e-3), .adams(timeStep: 1e-3, order: 8)
    ])
    func frictionHoldsABallPulledLessThanItCanHold(_ method: IntegrationMethod) throws {
        let scene = try PhysicsScene(
            dimensions: 2, bodies: [PhysicsBody(name: "ball", position: SIMD3(0.3, 0.05, 0), radius: 0.05)],
            springs: [SpringForce(.anchor(body: 0, at: SIMD3(0, 0.05, 0)), stiffness: 10)],
            gravity: SIMD3(0, -9.81, 0),
            planes: [Plane.floor(dimensions: 2, restitution: 0.5, friction: 0.5)])
        let trajectory = try Simulation(scene: scene).run(method: method, duration: 3, sampleRate: 4)
        for i in 0..<trajectory.count {
            let x = trajectory.position(atSample: i, coordinate: 0), v = trajectory.velocity(atSample: i, coordinate: 0)
            #expect(x == 0.3 && v == 0, "\(method): x = \(x), v = \(v) at t = \(trajectory.times[i])")
        }
    }

    /// A ball sliding at 2 m/s on a floor with μ = 0.5 stops after 2/(μg) s, 4/(2μg) m on, and
    /// stays there with no velocity left. Fixed steps stop within μg·h² of it (RK4's stages saw
    /// friction reverse and carried the ball to and fro at 4e-4 m/s for ever), first-order
    /// methods within their step's error.
    @Test(arguments: [
        (IntegrationMethod.dopri5(tolerance: 1e-9), 1e-9), (.dop853(tolerance: 1e-9), 1e-9),
        (.rk4(timeStep: 1e-3), 2e-6), (.verlet(timeStep: 1e-3), 2e-6), (.adams(timeStep: 1e-3, order: 8), 2e-6),
        (.semiImplicitEuler(timeStep: 1e-3), 5e-3),
        (.euler(timeStep: 1e-3), 5e-3)
    ])
    func aSlidingBallStopsWhereFrictionStopsIt(_ method: IntegrationMethod, _ tolerance: Double) throws {
        let scene = try PhysicsScene(
            dimensions: 2,
            bodies: [PhysicsBody(name: "ball", position: SIMD3(0.3, 0.05, 0), velocity: SIMD3(2, 0, 0), radius: 0.05)],
            gravity: SIMD3(0, -9.81, 0),
            planes: [Plane.floor(dimensions: 2, restitution: 0.5, friction: 0.5)])
        let trajectory = try Simulation(scene: scene).run(method: method, duration: 1, sampleRate: 10)
        let stop = 0.3 + 4 / (2 * 0.5 * 9.81), stopTime = 2 / (0.5 * 9.81)
        for i in 0..<trajectory.count where trajectory.times[i] > stopTime + 0.05 {
            let x = trajectory.position(atSample: i, coordinate: 0), v = trajectory.velocity(atSample: i, coordinate: 0)
            #expect(
                abs(x - stop) <= tolerance && v == 0,
                "\(method): x = \(x) (stops at \(stop)), v = \(v) at t = \(trajectory.times[i])")
        }
    }

    /// A ball (1 kg) under a ball of mass m on a floor (μ = 0.5), pulled sideways by a spring with
    /// 7 N: friction holds it while 7 ≤ μ(1 + m)g, the weight of the stack it carries, not its
    /// own (4.905 N, which let it slide out from under the top ball). m = 0.5 holds it (7.36 N),
    /// m = 0.4 does not (6.87 N).
    @Test(arguments: [
        IntegrationMethod.dopri5(tolerance: 1e-9), .dop853(tolerance: 1e-9), .rk4(timeStep: 1e-3),
        .semiImplicitEuler(timeStep: 1e-3), .verlet(timeStep: 1e-3), .adams(timeStep: 1e-3, order: 8)
    ])
    func frictionHoldsWhatTheStackOnTopPressesDown(_ method: IntegrationMethod) throws {
        func run(topMass: Double) throws -> Trajectory {
            let scene = try PhysicsScene(
                dimensions: 2,
                bodies: [
                    PhysicsBody(name: "low", position: SIMD3(0, 0.1, 0), radius: 0.1),
                    PhysicsBody(name: "top", mass: topMass, position: SIMD3(0, 0.3, 0), radius: 0.1)
                ],
                springs: [SpringForce(.anchor(body: 0, at: SIMD3(1, 0.1, 0)), stiffness: 7)],
                gravity: SIMD3(0, -9.81, 0),
                planes: [Plane.floor(dimensions: 2, restitution: 0.5, friction: 0.5)],
                contacts: PhysicsScene.Contacts(restitution: 0.5))
            return try Simulation(scene: scene).run(method: method, duration: 2, sampleRate: 4)
        }
        let held = try run(topMass: 0.5)
        #expect(0.5 * 1.5 * 9.81 >= 7 && 0.5 * 1.4 * 9.81 < 7)
        for i in 0..<held.count {
            let x = held.position(atSample: i, coordinate: 0), v = held.velocity(atSample: i, coordinate: 0)
            #expect(x == 0 && v == 0, "\(method): x = \(x), v = \(v) at t = \(held.times[i])")
            // The top ball stays on it (within the contact solver's 1e-12 residual, integrated).
            #expect(abs(held.position(atSample: i, coordinate: 3) - 0.3) <= 1e-9)
        }
        // The lower ball slides out from under the top one, which rolls off onto the floor. The
        // pair stays in contact while it presses: let go whenever the lower ball's pull outran
        // the top one's fall without the floor, it met again in 17,000 zero-speed impacts in 2 s.
        let slipping = try run(topMass: 0.4)
        #expect(slipping.position(atSample: 1, coordinate: 0) > 1e-3, "\(method): slides when the stack is lighter")
        #expect(slipping.events.count <= 20, "\(method): \(slipping.events.count) impacts")
    }

    /// Three balls stacked slightly off centre on a floor with friction (3-D): the column topples.
    /// With friction bounded by each body's own weight, the bottom ball crept at µm/s under the
    /// others and the adaptive methods took 1e-7 s steps (17 s of CPU for dopri5, 22 s for
    /// DOP853); bounded by the load it carries, both agree to 1e-6 in a few thousand steps.
    @Test func aToppledColumnWithFrictionSettlesInFewSteps() throws {
        let scene = try PhysicsScene(
            dimensions: 3,
            bodies: [
                PhysicsBody(name: "a", position: SIMD3(0, 0, 0.1), radius: 0.1),
                PhysicsBody(name: "b", position: SIMD3(0.001, 0, 0.35), radius: 0.1),
                PhysicsBody(name: "c", position: SIMD3(0, 0.002, 0.6), radius: 0.1)
            ],
            gravity: SIMD3(0, 0, -9.81),
            planes: [Plane(name: "floor", normal: SIMD3(0, 0, 1), restitution: 0.5, friction: 0.3)],
            contacts: PhysicsScene.Contacts(restitution: 0.5))
        let runs = try [IntegrationMethod.dopri5(tolerance: 1e-9), .dop853(tolerance: 1e-9)].map {
            try Simulation(scene: scene).run(method: $0, duration: 3, sampleRate: 10)
        }
        for run in runs { #expect(run.steps < 20_000, "\(run.steps) steps") }
        let last = runs[0].count - 1
        for coordinate in 0..<9 {
            let (p, q) = (
                runs[0].position(atSample: last, coordinate: coordinate),
                runs[1].position(atSample: last, coordinate: coordinate)
            )
            #expect(abs(p - q) <= 1e-6, "coordinate \(coordinate): \(p) against \(q)")
        }
    }

    /// A ball sliding at 2 m/s on a floor (μ = 0.5) pulled forward by a spring (k = 3, to x = 1)
    /// with less than friction holds: friction and the spring act as an oscillator about
    /// c = 1 − μg/k, so it stops at c + √(c² + (v₀/ω)²) (0.6828 m), where the spring pulls with
    /// 0.95 N and friction holds it. Before, the adaptive methods left it creeping at 1.2e-6 m/s,
    /// where friction ramping down below twice the sticking speed balanced the pull.
    @Test(arguments: [IntegrationMethod.dopri5(tolerance: 1e-10), .dop853(tolerance: 1e-10)])
    func aBallPulledAlongLessThanFrictionHoldsStops(_ method: IntegrationMethod) throws {
        let scene = try PhysicsScene(
            dimensions: 2,
            bodies: [PhysicsBody(name: "ball", position: SIMD3(0, 0.05, 0), velocity: SIMD3(2, 0, 0), radius: 0.05)],
            springs: [SpringForce(.anchor(body: 0, at: SIMD3(1, 0.05, 0)), stiffness: 3)],
            gravity: SIMD3(0, -9.81, 0),
            planes: [Plane.floor(dimensions: 2, restitution: 0.5, friction: 0.5)])
        let trajectory = try Simulation(scene: scene).run(method: method, duration: 2, sampleRate: 10)
        let omega = 3.0.squareRoot(), c = 1 - 0.5 * 9.81 / 3
        let stop = c + (c * c + (2 / omega) * (2 / omega)).squareRoot()
        let stopTime = Double.atan2(y: 2, x: omega * -c) / omega
        #expect(3 * (1 - stop) < 0.5 * 9.81, "the spring pulls with less than friction holds")
        for i in 0..<trajectory.count where trajectory.times[i] > stopTime + 0.05 {
            let x = trajectory.position(atSample: i, coordinate: 0), v = trajectory.velocity(atSample: i, coordinate: 0)
            #expect(
                abs(x - stop) <= 1e-8 && v == 0,
                "\(method): x = \(x) (stops at \(stop)), v = \(v) at t = \(trajectory.times[i])")
        }
    }
}
