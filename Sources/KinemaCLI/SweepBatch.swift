import Kinema

/// Springs of a sweep simulated together. Rows whose scene is one 1-D body on one spring, run by
/// RK4 with the same step, samples and duration, become the bodies of one scene, each on its own
/// lane of an 8-wide SIMD state, so each RK4 step advances eight springs. The scene system's
/// linear forces are lane-wise, so every lane computes exactly what its body alone would: a row's
/// output does not depend on the rows it shared a batch with (a test compares the bytes).
enum SweepBatch {
    static let width = 8

    /// What rows must share to run together: the duration, RK4's step and the sample rate.
    struct Key: Equatable {
        let duration: Double
        let timeStep: Double
        let sampleRate: Double?
    }

    /// The row's batch key, or nil when it must run alone: anything but a 1-D body on one spring of
    /// rest length 0 (no gravity, drag, planes or contacts) run by RK4 and sampled, or a step outside
    /// |λ|·h ≤ 2 for the spring's fastest eigenvalue λ — well inside RK4's stability interval, so
    /// no lane can trip the batch's shared energy check.
    static func key(_ scene: PhysicsScene, _ simulation: SimulationValues, duration: Double) -> Key? {
        guard scene.dimensions == 1, scene.bodies.count == 1, scene.springs.count == 1,
            scene.springs[0].restLength == 0,
            scene.planes.isEmpty,
            scene.contacts == nil, scene.drag == 0, scene.gravity.allSatisfy({ $0 == 0 }), simulation.frameRate == nil,
            case .kinema(.rk4(let h))? = try? simulation.choice()
        else { return nil }
        // Per unit mass, x'' = −k·x − c·x': λ = −c/2 ± √(c²/4 − k).
        let spring = scene.springs[0], mass = scene.bodies[0].mass
        let k = spring.stiffness / mass, c = spring.damping / mass
        let discriminant = c * c / 4 - k
        let fastest = discriminant > 0 ? c / 2 + discriminant.squareRoot() : k.squareRoot()
        return fastest * h <= 2 ? Key(duration: duration, timeStep: h, sampleRate: simulation.sampleRate) : nil
    }

    /// One scene holding the scenes' bodies and springs, body i on lane i.
    static func scene(_ scenes: [PhysicsScene]) throws -> PhysicsScene {
        var bodies: [PhysicsBody] = [], springs: [SpringForce] = []
        for (lane, scene) in scenes.enumerated() {
            let body = scene.bodies[0], spring = scene.springs[0]
            bodies.append(
                try PhysicsBody(
                    name: "lane \(lane)", mass: body.mass, position: body.position,
                    velocity: body.velocity, radius: body.radius))
            guard case let .anchor(_, at) = spring.ends else { springs.append(spring); continue }
            springs.append(
                try SpringForce(
                    .anchor(body: lane, at: at), stiffness: spring.stiffness,
                    damping: spring.damping, restLength: spring.restLength))
        }
        return try PhysicsScene(dimensions: 1, bodies: bodies, springs: springs)
    }
}
