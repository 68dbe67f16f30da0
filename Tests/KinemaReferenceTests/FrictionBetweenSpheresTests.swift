import CGSL
@_spi(Engine) import Kinema
import Testing

/// Coulomb friction between two spheres under the stepper, against GSL: a ball on a fixed ball,
/// the line of centres φ from the vertical, moves on the circle of radius R (the sum of the
/// radii) while the normal force per unit mass, g cos φ − R φ′², presses; sliding, friction takes
/// μ times that, so R φ″ = g sin φ − μ (g cos φ − R φ′²), integrated by `gsl_odeiv2` (rk8pd) as
/// the reference. Held where tan φ ≤ μ and nothing moves.
struct FrictionBetweenSpheresTests {
    static let g = 9.81, radius = 0.1, reach = 0.2

    /// Every stepping method the stepper runs, with a bound on its global error in position over a
    /// slide or until a stop: a millimetre for semi-implicit Euler at 1 ms (first order), 1e-5 for
    /// Verlet (second), 1e-9 for RK4 (fourth), 1e-8 for the tolerance-controlled and multistep
    /// ones (measured at most 4.9e-4, 8.3e-7, 8.4e-10 and 6.1e-9).
    static let methods: [(IntegrationMethod, Double)] = [
        (.rk4(timeStep: 1e-3), 1e-9), (.dopri5(tolerance: 1e-10), 1e-8), (.dop853(tolerance: 1e-10), 1e-8),
        (.adams(timeStep: 1e-3, order: 8), 1e-8), (.verlet(timeStep: 1e-3), 1e-5),
        (.semiImplicitEuler(timeStep: 1e-3), 1e-3)
    ]

    /// The top ball at angle φ on a fixed ball at the origin, moving along the surface at `speed`
    /// (positive: away from the top).
    static func scene(angle phi: Double, speed: Double = 0, friction mu: Double) throws -> PhysicsScene {
        try PhysicsScene(
            dimensions: 2,
            bodies: [
                PhysicsBody(name: "base", position: .zero, radius: radius, isStatic: true),
                PhysicsBody(
                    name: "top", position: SIMD3(reach * Double.sin(phi), reach * Double.cos(phi), 0),
                    velocity: SIMD3(speed * Double.cos(phi), -speed * Double.sin(phi), 0), radius: radius)
            ], gravity: SIMD3(0, -g, 0), contacts: PhysicsScene.Contacts(restitution: 0, friction: mu))
    }

    /// φ″ = (g sin φ − μ (g cos φ − R φ′²)) / R.
    static func angularAcceleration(_ phi: Double, _ rate: Double, friction mu: Double) -> Double {
        (g * Double.sin(phi) - mu * (g * Double.cos(phi) - reach * rate * rate)) / reach
    }

    /// The reduced equation's state (φ, φ′) at each of `times`, from (φ₀, φ′₀), sliding with φ′ ≥ 0.
    static func reference(angle: Double, rate: Double, friction mu: Double, at times: [Double]) -> [SIMD2<Double>] {
        var parameters = SIMD2(mu, 0)
        return withUnsafeMutablePointer(to: &parameters) { pointer in
            var system = gsl_odeiv2_system(
                function: { _, y, dydt, parameters in
                    let mu = parameters!.assumingMemoryBound(to: SIMD2<Double>.self).pointee.x
                    dydt![0] = y![1]
                    dydt![1] = FrictionBetweenSpheresTests.angularAcceleration(y![0], y![1], friction: mu)
                    return Int32(GSL_SUCCESS)
                }, jacobian: nil, dimension: 2, params: UnsafeMutableRawPointer(pointer))
            let driver = gsl_odeiv2_driver_alloc_y_new(&system, kinema_gsl_step_rk8pd(), 1e-6, 1e-13, 1e-13)
            defer { gsl_odeiv2_driver_free(driver) }
            var t = 0.0, y = [angle, rate]
            return times.map { target in
                if target > t { gsl_odeiv2_driver_apply(driver, &t, target, &y) }
                return SIMD2(y[0], y[1])
            }
        }
    }

    /// Inside the cone (tan θ = 0.9 μ) the ball stays where it is, to rounding (the normal
    /// leans, so holding it cancels gravity to 1e-16 of g, not exactly), under every method.
    @Test(arguments: methods.map(\.0))
    func frictionHoldsABallOnABallInsideTheCone(_ method: IntegrationMethod) throws {
        let mu = 0.5, scene = try Self.scene(angle: Double.atan(0.9 * mu), friction: mu)
        let run = try Simulation(scene: scene).run(method: method, duration: 1, sampleRate: 10)
        for i in 0..<run.count {
            let moved = run.position(atSample: i, ofBody: 1) - scene.bodies[1].position
            let v = run.velocity(atSample: i, ofBody: 1)
            #expect((moved * moved).sum().squareRoot() <= 1e-12, "\(method): moved \(moved) at \(run.times[i])")
            #expect((v * v).sum().squareRoot() <= 1e-12, "\(method): v = \(v) at \(run.times[i])")
        }
    }

    /// Outside the cone (tan θ = 1.5 μ) it slides off, as the reduced equation has it, until the
    /// normal force falls to 0 and it leaves the surface.
    @Test(arguments: methods)
    func aBallOnABallOutsideTheConeSlidesAsCoulombHasIt(_ method: IntegrationMethod, _ bound: Double) throws {
        let mu = 0.5, theta = Double.atan(1.5 * mu), scene = try Self.scene(angle: theta, friction: mu)
        let run = try Simulation(scene: scene).run(method: method, duration: 0.2, sampleRate: 100)
        let reference = Self.reference(angle: theta, rate: 0, friction: mu, at: run.times)
        var worst = 0.0, compared = 0
        for (i, state) in reference.enumerated() {
            // The normal force per unit mass: compare while it presses with a margin.
            guard Self.g * Double.cos(state.x) - Self.reach * state.y * state.y > 0.1 * Self.g else { break }
            let expected = Self.reach * SIMD3(Double.sin(state.x), Double.cos(state.x), 0)
            let error = run.position(atSample: i, ofBody: 1) - expected
            worst = max(worst, (error * error).sum().squareRoot())
            compared += 1
        }
        #expect(compared > 10, "compared \(compared) samples before it leaves")
        #expect(worst <= bound, "\(method): \(worst) from the reference")
        // Without friction it would be further on: friction acted.
        let frictionless = Self.reference(angle: theta, rate: 0, friction: 0, at: [0.1])[0].x
        let slid = run.position(atSample: 10, ofBody: 1)
        #expect(Double.atan2(y: slid.x, x: slid.y) < frictionless - 0.01, "\(method): slid as if frictionless")
    }

    /// Thrown down the surface inside the cone (tan θ = 0.5 μ, 0.3 m/s), it slows and stops where
    /// the reduced equation's φ′ falls to 0, and is held there.
    @Test(arguments: methods)
    func aBallSlidingOnABallStopsWhereFrictionStopsIt(_ method: IntegrationMethod, _ bound: Double) throws {
        let mu = 0.5, theta = Double.atan(0.5 * mu), speed = 0.3
        let scene = try Self.scene(angle: theta, speed: speed, friction: mu)
        let run = try Simulation(scene: scene).run(method: method, duration: 1, sampleRate: 10)
        // The reference's stop: the last of 10,000 instants in the first 0.5 s where φ′ > 0.
        let times = (0...10_000).map { Double($0) * 0.5e-4 }
        let states = Self.reference(angle: theta, rate: speed / Self.reach, friction: mu, at: times)
        let stop = try #require(states.lastIndex { $0.y > 0 }), rest = states[stop].x
        #expect(stop < times.count - 1 && Double.tan(rest) < mu, "stops inside the cone")
        let expected = Self.reach * SIMD3(Double.sin(rest), Double.cos(rest), 0)
        for i in 0..<run.count where run.times[i] > times[stop] + 0.05 {
            let error = run.position(atSample: i, ofBody: 1) - expected, v = run.velocity(atSample: i, ofBody: 1)
            // The reference's stop lies within one of its instants h = 5e-5 s, slowing at most 2g/R
            // there: within R·½·(2g/R)·h² = g h² of the last.
            let distance = (error * error).sum().squareRoot()
            #expect(distance <= bound + Self.g * 2.5e-9, "\(method): \(error) at \(run.times[i])")
            #expect((v * v).sum().squareRoot() <= 1e-12, "\(method): still moving at \(v)")
        }
    }
}

/// Friction between two moving spheres is equal and opposite: a ball sliding off a ball on a
/// frictionless floor (tan φ = 0.68 > μ = 0.5) pushes it sideways, and nothing outside acts
/// along the floor, so the horizontal momentum stays 0 (to rounding of 1e-14 of the weights'
/// impulse).
struct FrictionBetweenMovingSpheresTests {
    @Test(arguments: [IntegrationMethod.rk4(timeStep: 1e-3), .dopri5(tolerance: 1e-10)])
    func aBallOnABallKeepsTheMomentumAlongTheFloor(_ method: IntegrationMethod) throws {
        let phi = 0.6
        let scene = try PhysicsScene(
            dimensions: 2,
            bodies: [
                PhysicsBody(name: "low", position: SIMD3(0, 0.1, 0), radius: 0.1),
                PhysicsBody(
                    name: "top", mass: 0.5, position: SIMD3(0.2 * Double.sin(phi), 0.1 + 0.2 * Double.cos(phi), 0),
                    radius: 0.1)
            ], gravity: SIMD3(0, -9.81, 0), planes: [try Plane.floor(dimensions: 2, restitution: 0)],
            contacts: PhysicsScene.Contacts(restitution: 0, friction: 0.5))
        let run = try Simulation(scene: scene).run(method: method, duration: 0.3, sampleRate: 100)
        var moved = 0.0
        for i in 0..<run.count {
            let momentum = run.velocity(atSample: i, ofBody: 0).x + 0.5 * run.velocity(atSample: i, ofBody: 1).x
            #expect(abs(momentum) <= 1e-14 * 1.5 * 9.81 * run.times[i] + 1e-15, "\(method): \(momentum)")
            moved = max(moved, abs(run.position(atSample: i, ofBody: 0).x))
        }
        #expect(moved > 1e-3, "the low ball is pushed along the floor")
    }
}
