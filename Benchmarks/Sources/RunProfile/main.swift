import Foundation
import Kinema

// Whole runs through `Simulation.run` on one spring and one bouncing drop, µs per run (best of 5
// rounds of 500): the paths a one-body user takes, for comparing two builds of Kinema.
// Run: swift run -c release RunProfile
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
}

let spring = try PhysicsScene.spring(try DampedSpring(stiffness: 1000, dampingRatio: 0.1))
let drop = try PhysicsScene.drop(restitution: 0.8)
// The sweep's batch: 8 independent springs, one per lane of a SIMD8 (as `kinema sweep` builds them).
let batch = try PhysicsScene(
    dimensions: 1, bodies: (0..<8).map { try PhysicsBody(name: "lane \($0)", position: SIMD3(0, 0, 0)) },
    springs: (0..<8).map {
        try SpringForce(.anchor(body: $0, at: SIMD3(1, 0, 0)), stiffness: 100 + 20 * Double($0), damping: 4)
    })
let cases: [(String, PhysicsScene, IntegrationMethod, Double)] = [
    ("spring adams9 1/240 2 s", spring, .adams(timeStep: 1.0 / 240, order: 9), 2),
    ("spring adams8 1/120 2 s", spring, .adams(timeStep: 1.0 / 120, order: 8), 2),
    ("spring adams10 1/180 2 s", spring, .adams(timeStep: 1.0 / 180, order: 10), 2),
    ("spring adams12 1/120 2 s", spring, .adams(timeStep: 1.0 / 120, order: 12), 2),
    // Every other sample between steps.
    ("spring adams11 1/150 2 s", spring, .adams(timeStep: 1.0 / 150, order: 11), 2),
    ("spring rk4 1/600 2 s", spring, .rk4(timeStep: 1.0 / 600), 2),
    ("spring rk4 1/60 2 s", spring, .rk4(timeStep: 1.0 / 60), 2),  // 120 steps: mostly the run's fixed cost
    ("spring dopri5 1e-9 2 s", spring, .dopri5(tolerance: 1e-9), 2),
    ("spring dop853 1e-12 2 s", spring, .dop853(tolerance: 1e-12), 2),
    ("spring exact 2 s", spring, .exact, 2),
    ("sweep batch rk4 1/600 2 s", batch, .rk4(timeStep: 1.0 / 600), 2),
    ("drop e=0.8 dop853 1e-10 3 s", drop, .dop853(tolerance: 1e-10), 3),
    ("drop e=0.8 rk4 1/1000 3 s", drop, .rk4(timeStep: 1.0 / 1000), 3)
]
let only = CommandLine.arguments.dropFirst().first
let rounds = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 500 : 500
for (name, scene, method, duration) in cases where only == nil || name.hasPrefix(only!) {
    var best = Double.infinity
    for _ in 0..<5 {
        best = min(
            best,
            try seconds {
                for _ in 0..<rounds { _ = try Simulation(scene: scene).run(method: method, duration: duration) }
            } / Double(rounds))
    }
    print("\(name): \(String(format: "%.2f", best * 1e6)) µs")
}
