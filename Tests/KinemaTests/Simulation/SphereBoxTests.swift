import Foundation
@_spi(Engine) import Kinema
import Testing

/// 1,000 spheres in a closed box: impacts located as events among 500,000 possible pairs, found
/// through the broad phase. Checked against conservation laws and geometry, not earlier output.
struct SphereBoxTests {
    static let radius = 0.02

    /// Spheres on a 10×10×10 grid in the box [−1, 1]³ (six planes), random velocities in [−1, 1]³
    /// from a fixed seed, no gravity; walls and contacts of restitution `restitution`.
    /// - Parameters:
    ///   - radius: the spheres' radius (0.0229 in a box of 1 fills 5 % of it).
    ///   - size: the box's edge; the grid spans 90 % of it.
    static func box(restitution: Double, perSide: Int = 10, radius: Double = radius, size: Double = 2) throws
        -> PhysicsScene
    {
        var seed: UInt64 = 12345
        func random() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53) * 2 - 1
        }
        var bodies: [PhysicsBody] = []
        let spacing = 0.9 * size / Double(perSide)
        for i in 0..<perSide {
            for j in 0..<perSide {
                for k in 0..<perSide {
                    let p = [i, j, k].map { -0.45 * size + spacing * (Double($0) + 0.5) }
                    bodies.append(
                        try PhysicsBody(
                            name: "s\(bodies.count)", position: SIMD3(sceneComponents: p),
                            velocity: SIMD3(random(), random(), random()),
                            radius: radius))
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
                        name: "wall\(planes.count)", normal: SIMD3(sceneComponents: normal), offset: -size / 2,
                        restitution: restitution))
            }
        }
        return try PhysicsScene(
            dimensions: 3, bodies: bodies, planes: planes,
            contacts: PhysicsScene.Contacts(restitution: restitution), restVelocity: 0)
    }

    static func kineticEnergy(_ t: Trajectory, _ sample: Int) -> Double {
        (0..<t.coordinateCount).reduce(0) {
            $0 + 0.5 * t.velocity(atSample: sample, coordinate: $1) * t.velocity(atSample: sample, coordinate: $1)
        }
    }

    /// The deepest any sphere is inside a wall or another sphere at `sample`, in radii.
    static func deepestOverlap(_ t: Trajectory, _ sample: Int, radius: Double = radius, size: Double = 2) -> Double {
        let n = t.scene.bodies.count
        var deepest = 0.0
        for a in 0..<n {
            let xa = (0..<3).map { t.position(atSample: sample, coordinate: 3 * a + $0) }
            for x in xa { deepest = max(deepest, abs(x) + radius - size / 2) }
            for b in a + 1..<n {
                var d2 = 0.0
                for axis in 0..<3 {
                    let d = xa[axis] - t.position(atSample: sample, coordinate: 3 * b + axis)
                    d2 += d * d
                }
                deepest = max(deepest, 2 * radius - d2.squareRoot())
            }
        }
        return deepest / radius
    }

    @Test(arguments: [1.0, 0.5])
    func thousandSpheresInABox(restitution: Double) throws {
        let scene = try Self.box(restitution: restitution)
        let start = Date()
        let run = try Simulation(scene: scene).run(method: .rk4(timeStep: 1.0 / 500), duration: 5, sampleRate: 10)
        let seconds = Date().timeIntervalSince(start)
        let initial = Self.kineticEnergy(run, 0)
        var previous = initial
        for s in 1..<run.count {
            let energy = Self.kineticEnergy(run, s)
            if restitution == 1 {
                #expect(abs(energy - initial) <= 1e-9 * initial, "t = \(run.times[s])")
            } else {
                #expect(energy <= previous * (1 + 1e-12), "t = \(run.times[s])")
            }
            previous = energy
        }
        for s in [run.count / 2, run.count - 1] { #expect(Self.deepestOverlap(run, s) <= 1e-9) }
        let walls = run.events.filter { $0.collider.hasPrefix("wall") }.count
        #expect(walls > 1000 && run.events.count > walls, "both kinds of impact happen")
        print(
            "1000 spheres, e = \(restitution): \(run.events.count) impacts (\(walls) with walls), \(run.steps) steps, "
                + "\(Double(run.pairTests) / Double(run.steps)) sphere pairs tested per step (of 499500), "
                + "energy \(initial) → \(previous), \(seconds) s (debug build)")
    }

    /// A box 5 % full has a dozen impacts in every step of 2 ms, each followed by steps that find
    /// again only the pairs of the bodies it changed. Straight flights are cubics, which RK4 and
    /// its Hermite interpolant follow to rounding, so its impacts are the event queue's: the same
    /// bodies and colliders, at the same times up to the rounding the box's chaos amplifies over
    /// 0.1 s (positions differ by 1e-12 m there).
    @Test func aDenseBoxUnderRK4MeetsTheEventQueuesImpacts() throws {
        let scene = try Self.box(restitution: 1, radius: 0.0229, size: 1)
        let simulation = Simulation(scene: scene)
        let stepped = try simulation.run(method: .rk4(timeStep: 0.002), duration: 0.1, sampleRate: 10)
        let exact = try simulation.run(method: .exact, duration: 0.1, sampleRate: 10)
        let impactTimeBound = 1e-10  // seconds
        func key(_ e: ImpactEvent) -> String { "\(e.body)-\(e.collider)" }
        func sorted(_ events: [ImpactEvent]) -> [ImpactEvent] {
            events.sorted { (key($0), $0.time) < (key($1), $1.time) }
        }
        #expect(exact.events.count > 500, "\(exact.events.count) impacts in 0.1 s")
        #expect(stepped.events.count == exact.events.count)
        for (a, b) in zip(sorted(stepped.events), sorted(exact.events)) {
            #expect(key(a) == key(b) && abs(a.time - b.time) <= impactTimeBound, "\(key(a)) at \(a.time), \(b.time)")
        }
        #expect(Self.deepestOverlap(stepped, stepped.count - 1, radius: 0.0229, size: 1) <= 1e-9)
    }
}
