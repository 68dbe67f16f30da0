import Kinema

/// The scenes `verify` and `work-precision` measure on, each with its analytic solution, written
/// independently of the integrators (closed forms; the drop's impacts from the geometric series).
struct StandardScene {
    let name: String
    let scene: PhysicsScene
    let duration: Double
    /// The analytic position of the single body at t.
    let analytic: (Double) -> Double

    static func all() throws -> [StandardScene] {
        let cosine = try DampedCosine(decay: 5, frequency: 30)
        return [
            try spring("spring-underdamped", k: 400, c: 4, v0: 3),
            try spring("spring-critical", k: 400, c: 40, v0: -5),
            try spring("spring-overdamped", k: 400, c: 100, v0: 8),
            StandardScene(
                name: "damped-cosine-5-30", scene: try PhysicsScene.spring(cosine.spring, initialVelocity: 5),
                duration: 1.5, analytic: { cosine.value(at: $0) }),
            try drop()
        ]
    }

    static func spring(_ name: String, k: Double, c: Double, v0: Double) throws -> StandardScene {
        let spring = try DampedSpring(stiffness: k, damping: c)
        let motion = try spring.motion(from: 0, to: 1, initialVelocity: v0)
        return StandardScene(
            name: name, scene: try PhysicsScene.spring(spring, initialVelocity: v0), duration: 1.5,
            analytic: { motion.position(at: $0) })
    }

    /// A ball dropped from 1 m (g = 9.81, e = 0.8): between impacts a parabola; impact speeds
    /// shrink by e until the rebound speed falls below the rest velocity.
    static func drop(height h: Double = 1, g: Double = 9.81, e: Double = 0.8) throws -> StandardScene {
        let scene = try PhysicsScene.drop(height: h, gravity: g, restitution: e)
        var impacts: [(time: Double, speedOut: Double)] = []
        var time = (2 * h / g).squareRoot(), speed = (2 * g * h).squareRoot()
        while impacts.count < 10_000 {
            let out = e * speed
            if out < scene.restVelocity { impacts.append((time, 0)); break }
            impacts.append((time, out))
            time += 2 * out / g
            speed = out
        }
        return StandardScene(name: "drop", scene: scene, duration: 3) { t in
            guard let last = impacts.last(where: { $0.time <= t }) else { return h - 0.5 * g * t * t }
            let s = t - last.time
            return last.speedOut == 0 ? 0 : last.speedOut * s - 0.5 * g * s * s
        }
    }

    /// Max |x − analytic| over a trajectory's samples.
    func maxError(_ trajectory: Trajectory) -> Double {
        var worst = 0.0
        for i in 0..<trajectory.count {
            worst = max(worst, abs(trajectory.position(atSample: i) - analytic(trajectory.times[i])))
        }
        return worst
    }
}
