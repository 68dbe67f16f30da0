import Foundation
import KinemaTestSupport
import Testing

@_spi(Engine) @testable import Kinema

/// Islands at rest asleep under the stepper (`SleepingIslands`): a sleeping body's samples are its
/// rest state exactly, and an impact or a gesture wakes it, after which it moves as the closed
/// forms say.
struct SleepingTests {
    static let methods: [IntegrationMethod] = [
        .rk4(timeStep: 1e-3), .dopri5(tolerance: 1e-9), .semiImplicitEuler(timeStep: 1e-3), .verlet(timeStep: 1e-3),
        .adams(timeStep: 1e-3, order: 8), .dop853(tolerance: 1e-9)
    ]

    /// The twelve balls of examples/pile-12-2d.json settle and fall asleep: from some sample on,
    /// every velocity is exactly 0 and every position exactly the same at every sample, and
    /// nothing is more than 1e-8 inside anything.
    @Test(arguments: methods)
    func aSettledPileSleepsAtItsRestState(_ method: IntegrationMethod) throws {
        let url = packageRoot().appendingPathComponent("examples/pile-12-2d.json")
        let scene = try PhysicsScene(json: try String(contentsOf: url, encoding: .utf8))
        let run = try Simulation(scene: scene).run(method: method, duration: 6, sampleRate: 10)
        let lanes = scene.coordinateCount
        func row(_ values: [Double], _ i: Int) -> ArraySlice<Double> { values[(i * lanes)..<((i + 1) * lanes)] }
        let asleep = try #require(
            (0..<run.count).first { i in row(run.velocities, i).allSatisfy { $0 == 0 } }, "\(method): never asleep")
        #expect(run.times[asleep] <= 4, "\(method): asleep only at \(run.times[asleep]) s")
        for i in asleep..<run.count {
            #expect(row(run.velocities, i).allSatisfy { $0 == 0 }, "\(method): woke at \(run.times[i])")
            #expect(row(run.positions, i) == row(run.positions, asleep), "\(method): moved at \(run.times[i])")
        }
        #expect(run.deepestOverlap <= 1e-8, "\(method)")
    }

    /// Ball A rests on a frictionless floor and falls asleep; ball B slides into it at 1 m/s and
    /// hits it at 1.8 s. Woken, A leaves at (1 + e)/2 and B goes on at (1 − e)/2 of the speed, as
    /// two free balls of equal mass do (had A stayed pinned, B would bounce back at −e).
    @Test(arguments: methods)
    func anImpactWakesASleepingBall(_ method: IntegrationMethod) throws {
        let e = 0.5, r = 0.1
        let scene = try PhysicsScene(
            dimensions: 2,
            bodies: [
                PhysicsBody(name: "a", position: SIMD3(1, r, 0), radius: r),
                PhysicsBody(name: "b", position: SIMD3(-1, r, 0), velocity: SIMD3(1, 0, 0), radius: r)
            ], gravity: SIMD3(0, -9.81, 0), planes: [try Plane.floor(dimensions: 2, restitution: e)],
            contacts: PhysicsScene.Contacts(restitution: e))
        let run = try Simulation(scene: scene).run(method: method, duration: 3, sampleRate: 10)
        let impact = 1.8
        let hits = run.events.filter { $0.hit == .body(1) || $0.hit == .body(0) }
        #expect(hits.count == 1, "\(method): \(run.events)")
        #expect(abs((hits.first?.time ?? 0) - impact) <= 1e-12, "\(method): \(hits)")
        for i in 0..<run.count {
            let t = run.times[i], a = run.position(atSample: i, ofBody: 0), b = run.position(atSample: i, ofBody: 1)
            let s = max(t - impact, 0)
            let expectedA = 1 + (1 + e) / 2 * s, expectedB = t <= impact ? -1 + t : 0.8 + (1 - e) / 2 * s
            // The closed forms to the methods' rounding over 3 s of a constant velocity.
            #expect(abs(a.x - expectedA) <= 1e-9 && abs(b.x - expectedB) <= 1e-9, "\(method) at \(t): \(a.x), \(b.x)")
            #expect(abs(a.y - r) <= 1e-12 && abs(b.y - r) <= 1e-12, "\(method) at \(t): lifted")
        }
    }

    /// A ball at rest on the floor of a live scene falls asleep; flicked up at 2 m/s at 1 s, it
    /// follows the parabola from there and lands 2v/g later.
    @Test(arguments: [IntegrationMethod.rk4(timeStep: 1e-3), .dopri5(tolerance: 1e-10)])
    func aGestureWakesASleepingBall(_ method: IntegrationMethod) throws {
        let g = 9.81, r = 0.1
        let scene = try PhysicsScene(
            dimensions: 2, bodies: [PhysicsBody(name: "ball", position: SIMD3(0, r, 0), radius: r)],
            gravity: SIMD3(0, -g, 0), planes: [try Plane.floor(dimensions: 2, restitution: 0)])
        var simulator = try PhysicsSimulator(scene: scene, method: method)
        for frame in 1...60 { simulator.advance(to: Double(frame) / 60) }
        #expect(simulator.position(ofBody: 0) == SIMD3(0, r, 0) && simulator.velocity(ofBody: 0) == .zero)
        try simulator.setVelocity(SIMD3(0, 2, 0), ofBody: 0)
        var landed: Double?
        for frame in 61...120 {
            let t = Double(frame) / 60, events = simulator.advance(to: t)
            if landed == nil, let first = events.first { landed = first.time }
            guard landed == nil else { continue }
            let s = t - 1, height = r + 2 * s - 0.5 * g * s * s
            #expect(abs(simulator.position(ofBody: 0).y - height) <= 1e-12, "\(method) at \(t)")
        }
        #expect(abs((landed ?? 0) - (1 + 4 / g)) <= 1e-12, "\(method): landed at \(String(describing: landed))")
    }
}
