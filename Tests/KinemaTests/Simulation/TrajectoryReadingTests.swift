import Kinema
import Testing

/// Reading a run as an app does, through the public API alone: a body by name, its positions and
/// velocities at every sample, and who hit what by index.
@Suite struct TrajectoryReadingTests {
    /// Two balls thrown sideways in a 2-D box under gravity: in free flight each follows
    /// x = x0 + vx·t, y = y0 + vy·t − g t²/2 until its first impact.
    static let g = 9.81

    static func scene() throws -> PhysicsScene {
        let left = try PhysicsBody(name: "left", position: SIMD3(0.2, 1, 0), velocity: SIMD3(1, 0, 0), radius: 0.05)
        let right = try PhysicsBody(
            name: "right", position: SIMD3(0.8, 1.2, 0), velocity: SIMD3(-1, 0.5, 0), radius: 0.05)
        let floor = try Plane.floor(dimensions: 2, restitution: 0.5)
        let wall = try Plane(name: "wall", normal: SIMD3(-1, 0, 0), offset: -1, restitution: 1)
        return try PhysicsScene(
            dimensions: 2, bodies: [left, right], gravity: SIMD3(0, -g, 0), planes: [floor, wall],
            contacts: .init(restitution: 1))
    }

    static func largest(_ v: SIMD3<Double>) -> Double { max(abs(v.x), abs(v.y), abs(v.z)) }

    @Test func bodiesReadByNameFollowTheirParabolas() throws {
        let scene = try Self.scene()
        let run = try Simulation(scene: scene).run(method: .dop853(tolerance: 1e-12), duration: 0.3)
        let right = try #require(scene.index(ofBody: "right"))
        #expect(right == 1 && scene.index(ofBody: "none") == nil)
        let positions = run.positions(ofBody: right), velocities = run.velocities(ofBody: right)
        #expect(positions.count == run.count && velocities.count == run.count)
        for (i, t) in run.times.enumerated() {
            let expected = SIMD3(0.8 - t, 1.2 + 0.5 * t - 0.5 * Self.g * t * t, 0)
            // dop853 at 1e-12 on a parabola: error bounded by the tolerance times the motion's scale.
            #expect(Self.largest(positions[i] - expected) <= 1e-10, "t = \(t)")
            #expect(Self.largest(velocities[i] - SIMD3(-1, 0.5 - Self.g * t, 0)) <= 1e-10)
            #expect(positions[i] == run.position(atSample: i, ofBody: right))
            #expect(velocities[i] == run.velocity(atSample: i, ofBody: right))
            #expect(positions[i].x == run.position(atSample: i, coordinate: right * 2))
        }
    }

    @Test func impactsNameBodiesAndPlanesByIndex() throws {
        let scene = try Self.scene()
        let run = try Simulation(scene: scene).run(method: .exact, duration: 1.5)
        #expect(!run.events.isEmpty)
        var kinds = Set<String>()
        for event in run.events {
            #expect(scene.bodies[event.bodyIndex].name == event.body)
            switch event.hit {
            case .body(let other):
                kinds.insert("body")
                #expect(scene.bodies[other].name == event.collider && other != event.bodyIndex)
            case .plane(let plane):
                kinds.insert(scene.planes[plane].name)
                #expect(scene.planes[plane].name == event.collider)
            }
        }
        // The floor is hit first: y0 − r = g t²/2 for the left ball (it starts at rest vertically).
        let first = try #require(run.events.first)
        #expect(first.hit == .plane(0) && first.bodyIndex == 0)
        #expect(abs(first.time - (2 * 0.95 / Self.g).squareRoot()) <= 1e-12)
        #expect(kinds.contains("floor"))
    }
}
