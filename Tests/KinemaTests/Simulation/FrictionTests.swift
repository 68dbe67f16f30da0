import Testing

@testable import Kinema

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
}
