import Foundation
@_spi(Engine) import Kinema
import Testing

@testable import KinemaReference

/// The standard scenes: springs in the three regimes with an initial velocity, the jelly spring's damped
/// cosine, and two collision scenes.
struct StandardScene: CustomTestStringConvertible, Sendable {
    let name: String
    let scene: PhysicsScene
    let duration: Double
    /// The analytic position of the single body, where there is one.
    let analytic: (@Sendable (Double) -> Double)?
    var testDescription: String { name }

    static let springs: [StandardScene] = [
        spring("underdamped", k: 400, c: 4, v0: 3),
        spring("critical", k: 400, c: 40, v0: -5),
        spring("overdamped", k: 400, c: 100, v0: 8),
        {
            let cosine = try! DampedCosine(decay: 5, frequency: 30)
            return StandardScene(
                name: "damped-cosine(5,30)", scene: try! PhysicsScene.spring(cosine.spring, initialVelocity: 5),
                duration: 1.5, analytic: { cosine.value(at: $0) })
        }()
    ]

    static func spring(_ name: String, k: Double, c: Double, v0: Double) -> StandardScene {
        let spring = try! DampedSpring(stiffness: k, damping: c)
        let motion = try! spring.motion(from: 0, to: 1, initialVelocity: v0)
        return StandardScene(
            name: name, scene: try! PhysicsScene.spring(spring, initialVelocity: v0), duration: 1.5,
            analytic: { motion.position(at: $0) })
    }

    static let collisions: [StandardScene] = [
        StandardScene(name: "drop e=0.8", scene: try! PhysicsScene.drop(restitution: 0.8), duration: 3, analytic: nil),
        StandardScene(
            name: "2-D ball on a spring",
            scene: {
                let ball = try! PhysicsBody(
                    name: "ball", position: SIMD3(0.5, 1, 0), velocity: SIMD3(1, 0, 0), radius: 0.05)
                return try! PhysicsScene(
                    dimensions: 2, bodies: [ball],
                    springs: [
                        SpringForce(.anchor(body: 0, at: SIMD3(0, 1, 0)), stiffness: 40, damping: 0.5, restLength: 0.5)
                    ],
                    gravity: SIMD3(0, -9.81, 0), planes: [Plane.floor(dimensions: 2, restitution: 0.6, friction: 0.1)])
            }(), duration: 2, analytic: nil)
    ]
}

struct GSLReferenceTests {
    @Test(arguments: StandardScene.springs)
    func rk8pdMatchesTheAnalyticSpringAndDOP853(_ s: StandardScene) throws {
        let gsl = try GSLReference.simulate(
            s.scene, method: .rk8pd, stepping: .adaptive(tolerance: 1e-12),
            duration: s.duration, sampleRate: 200)
        let kinema = try Simulation(scene: s.scene).run(
            method: .dop853(tolerance: 1e-12), duration: s.duration, sampleRate: 200)
        #expect(gsl.count == kinema.count)
        for i in 0..<gsl.count {
            #expect(abs(gsl.position(atSample: i) - s.analytic!(gsl.times[i])) <= 1e-10, "t = \(gsl.times[i])")
            #expect(abs(gsl.position(atSample: i) - kinema.position(atSample: i)) <= 1e-10)
        }
    }

    @Test(arguments: StandardScene.collisions)
    func rk8pdMatchesDOP853WithCollisions(_ s: StandardScene) throws {
        let gsl = try GSLReference.simulate(
            s.scene, method: .rk8pd, stepping: .adaptive(tolerance: 1e-12),
            duration: s.duration, sampleRate: 100)
        let kinema = try Simulation(scene: s.scene).run(
            method: .dop853(tolerance: 1e-12), duration: s.duration, sampleRate: 100)
        #expect(!gsl.events.isEmpty)
        #expect(gsl.events.count == kinema.events.count)
        for (a, b) in zip(gsl.events, kinema.events) {
            #expect(abs(a.time - b.time) <= 1e-9, "impact at \(a.time) vs \(b.time)")
        }
        for i in 0..<gsl.count {
            for j in 0..<gsl.coordinateCount {
                #expect(
                    abs(gsl.position(atSample: i, coordinate: j) - kinema.position(atSample: i, coordinate: j)) <= 1e-9)
            }
        }
    }

    /// GSL's rk4 estimates its error by step doubling and keeps the two half steps: its step h is
    /// classic RK4 at h/2. Comparing like with like needs this.
    /// The KinemaReference article's snippet, as written, against the analytic spring.
    @Test func theArticlesReferenceRunFollowsTheAnalyticSpring() throws {
        let scene = try PhysicsScene.spring(try DampedSpring(stiffness: 1000, dampingRatio: 0.1))
        let reference = try GSLReference.simulate(
            scene, method: .rk8pd, stepping: .adaptive(tolerance: 1e-12), duration: 2, sampleRate: 1000)
        let motion = try DampedSpring(stiffness: 1000, dampingRatio: 0.1).motion()
        #expect(reference.count == 2001)
        for i in 0..<reference.count {
            #expect(abs(reference.position(atSample: i) - motion.position(at: reference.times[i])) <= 1e-9)
        }
    }

    @Test func gslRK4AtHIsClassicRK4AtHalfH() throws {
        let scene = try PhysicsScene.spring(DampedSpring(stiffness: 400, damping: 4), initialVelocity: 3)
        let h = 0.01
        let gsl = try GSLReference.simulate(
            scene, method: .rk4, stepping: .fixed(timeStep: h), duration: 2, sampleRate: 100)
        let half = try Simulation(scene: scene).run(method: .rk4(timeStep: h / 2), duration: 2, sampleRate: 100)
        let full = try Simulation(scene: scene).run(method: .rk4(timeStep: h), duration: 2, sampleRate: 100)
        var fullGap = 0.0
        for i in 0..<gsl.count {
            #expect(abs(gsl.position(atSample: i) - half.position(atSample: i)) <= 1e-14)
            fullGap = max(fullGap, abs(gsl.position(atSample: i) - full.position(atSample: i)))
        }
        #expect(fullGap > 1e-6, "GSL rk4 at h differs from classic RK4 at h")
    }

    /// Every GSL method within its bound of the analytic spring (10 oscillations, 1.5 s): adaptive
    /// at tolerance 1e-8, global error ≤ 100 × tolerance for the one-step methods and ≤ 1000 ×
    /// for the multistep ones (their per-step control lets error accumulate); fixed at h = 1e-4,
    /// ≤ 1e-6 (every one-step method here is at least second order: ≤ C·h² with C < 100).
    @Test(arguments: GSLMethod.allCases)
    func everyMethodFollowsTheAnalyticSpring(_ method: GSLMethod) throws {
        let s = StandardScene.springs[0]
        let tolerance = 1e-8
        let trajectory = try GSLReference.simulate(
            s.scene, method: method, stepping: .adaptive(tolerance: tolerance),
            duration: s.duration, sampleRate: 100)
        var worst = 0.0
        for i in 0..<trajectory.count {
            worst = max(worst, abs(trajectory.position(atSample: i) - s.analytic!(trajectory.times[i])))
        }
        #expect(worst <= (method.isMultistep ? 1000 : 100) * tolerance, "\(method): \(worst)")
        guard !method.isMultistep else {
            #expect(throws: KinemaError.self) {
                try GSLReference.simulate(s.scene, method: method, stepping: .fixed(timeStep: 1e-4), duration: 1)
            }
            return
        }
        let fixed = try GSLReference.simulate(
            s.scene, method: method, stepping: .fixed(timeStep: 1e-4),
            duration: s.duration, sampleRate: 100)
        var fixedWorst = 0.0
        for i in 0..<fixed.count {
            fixedWorst = max(fixedWorst, abs(fixed.position(atSample: i) - s.analytic!(fixed.times[i])))
        }
        #expect(fixedWorst <= 1e-6, "\(method) fixed: \(fixedWorst)")
    }

    @Test func jacobianMatchesFiniteDifferences() throws {
        let a = try PhysicsBody(name: "a", mass: 2, position: SIMD3(0.3, 1.1, 0), velocity: SIMD3(0.5, -0.2, 0))
        let b = try PhysicsBody(name: "b", mass: 0.5, position: SIMD3(1.0, 0.2, 0), velocity: SIMD3(-1, 0.4, 0))
        let scene = try PhysicsScene(
            dimensions: 2, bodies: [a, b],
            springs: [
                SpringForce(.anchor(body: 0, at: SIMD3(0, 2, 0)), stiffness: 30, damping: 0.7, restLength: 0.4),
                SpringForce(.bodies(0, 1), stiffness: 12, damping: 0.3, restLength: 0.9),
                SpringForce(.anchor(body: 1, at: SIMD3(1, 0, 0)), stiffness: 5, damping: 0.1)
            ], gravity: SIMD3(0, -9.81, 0), drag: 0.2)
        let system = SceneSystem<SIMD4<Double>>(scene: scene)
        let state = system.initialState
        let (dx, dv) = system.jacobian(position: state.position, velocity: state.velocity)
        let h = 1e-6
        for column in 0..<4 {
            var e = SIMD4<Double>.zero
            e[column] = h
            let ax =
                (system.acceleration(position: state.position + e, velocity: state.velocity, time: 0)
                    - system.acceleration(position: state.position - e, velocity: state.velocity, time: 0)) / (2 * h)
            let av =
                (system.acceleration(position: state.position, velocity: state.velocity + e, time: 0)
                    - system.acceleration(position: state.position, velocity: state.velocity - e, time: 0)) / (2 * h)
            for row in 0..<4 {
                #expect(abs(dx[row * 4 + column] - ax[row]) <= 1e-6 * max(1, abs(ax[row])))
                #expect(abs(dv[row * 4 + column] - av[row]) <= 1e-6 * max(1, abs(av[row])))
            }
        }
    }

    @Test func gslFailuresAreSwiftErrors() throws {
        let scene = try PhysicsScene.spring(DampedSpring(stiffness: 400, damping: 4))
        #expect(throws: (any Error).self) {
            try GSLReference.simulate(scene, method: .rkf45, stepping: .adaptive(tolerance: 1e-300), duration: 1)
        }
        #expect(throws: KinemaError.self) {
            try GSLReference.simulate(scene, method: .rk4, stepping: .fixed(timeStep: 0), duration: 1)
        }
    }
}

/// GSL runs streamed (rows handed on in chunks of 4,096 and dropped) equal the runs kept whole,
/// with and without colliders.
struct GSLStreamingTests {
    @Test(arguments: [false, true])
    func streamedEqualsWhole(_ colliders: Bool) throws {
        let scene =
            colliders
            ? try PhysicsScene.drop(height: 1, restitution: 0.6)
            : try PhysicsScene.spring(DampedSpring(stiffness: 300, damping: 3), initialVelocity: 2)
        let whole = try GSLReference.simulate(
            scene, method: .rkf45, stepping: .adaptive(tolerance: 1e-10), duration: 2,
            sampleRate: 5_000)
        var times: [Double] = [], positions: [Double] = [], velocities: [Double] = [], chunks = 0
        let summary = try GSLReference.simulate(
            scene, method: .rkf45, stepping: .adaptive(tolerance: 1e-10), duration: 2,
            sampleRate: 5_000
        ) {
            chunks += 1
            times += $0.times
            positions += $0.positions
            velocities += $0.velocities
        }
        #expect(whole.count == 10_001 && chunks == 3 && summary.count == 0)
        #expect(times == whole.times && positions == whole.positions && velocities == whole.velocities)
        #expect(summary.events == whole.events && summary.steps == whole.steps)
        #expect(!colliders || !whole.events.isEmpty)
    }
}

struct CoupledChainTests {
    /// A hanging chain of 12 bodies in 3-D (36 coordinates) joined by springs with rest lengths:
    /// nonlinear and coupled, so the reference is GSL's rk8pd, not a closed form.
    @Test func chainMatchesGSL() throws {
        var bodies: [PhysicsBody] = [], springs: [SpringForce] = []
        for i in 0..<12 {
            bodies.append(
                try PhysicsBody(name: "b\(i)", mass: 0.2, position: SIMD3(0.3 * Double(i + 1), 0, 0.05 * Double(i))))
            springs.append(
                try SpringForce(
                    i == 0 ? .anchor(body: 0, at: SIMD3(0, 0, 0)) : .bodies(i - 1, i),
                    stiffness: 80, damping: 0.3, restLength: 0.25))
        }
        let scene = try PhysicsScene(dimensions: 3, bodies: bodies, springs: springs, gravity: SIMD3(0, 0, -9.81))
        let kinema = try Simulation(scene: scene).run(method: .dop853(tolerance: 1e-12), duration: 1, sampleRate: 20)
        let gsl = try GSLReference.simulate(
            scene, method: .rk8pd, stepping: .adaptive(tolerance: 1e-12), duration: 1, sampleRate: 20)
        for s in 0..<kinema.count {
            for j in 0..<36 {
                #expect(
                    abs(kinema.position(atSample: s, coordinate: j) - gsl.position(atSample: s, coordinate: j)) <= 1e-8)
            }
        }
    }
}

/// A scene of 3,000 coordinates in flat storage, against GSL's rk8pd through the same scene.
struct LargeSceneReferenceTests {
    /// 1,000 bodies in 3-D joined by springs of rest length 0.25 (the benchmarks' chain), under gravity.
    static func chain(_ n: Int) throws -> PhysicsScene {
        var bodies: [PhysicsBody] = [], springs: [SpringForce] = []
        for i in 0..<n {
            bodies.append(
                try PhysicsBody(name: "b\(i)", mass: 0.2, position: SIMD3(0.3 * Double(i + 1), 0, 0.05 * Double(i))))
            springs.append(
                try SpringForce(
                    i == 0 ? .anchor(body: 0, at: SIMD3(0, 0, 0)) : .bodies(i - 1, i),
                    stiffness: 80, damping: 0.3, restLength: 0.25))
        }
        return try PhysicsScene(dimensions: 3, bodies: bodies, springs: springs, gravity: SIMD3(0, 0, -9.81))
    }

    @Test(arguments: [IntegrationMethod.rk4(timeStep: 1e-4), .dop853(tolerance: 1e-12)])
    func thousandBodyChainMatchesGSL(_ method: IntegrationMethod) throws {
        let scene = try Self.chain(1000)
        let gsl = try GSLReference.simulate(
            scene, method: .rk8pd, stepping: .adaptive(tolerance: 1e-13), duration: 0.3, sampleRate: 20)
        let kinema = try Simulation(scene: scene).run(method: method, duration: 0.3, sampleRate: 20)
        #expect(gsl.count == kinema.count)
        var worst = 0.0
        for s in 0..<gsl.count {
            for c in 0..<scene.coordinateCount {
                worst = max(
                    worst, abs(gsl.position(atSample: s, coordinate: c) - kinema.position(atSample: s, coordinate: c)))
            }
        }
        #expect(worst <= 1e-8)
        print("1000-body chain, \(method.name) vs GSL rk8pd: largest difference \(worst)")
        #expect(
            kinema.position(atSample: kinema.count - 1, coordinate: 2999) != scene.bodies[999].position[2],
            "the chain moves")
    }
}

/// `exact` on bodies joined by springs (the matrix exponential of their linear system), against
/// GSL's rk8pd at 1e-13 through the same scene: a 1-D chain with rest lengths, drag, two planes and
/// sphere contacts; a 2-D chain of rest length 0 under gravity bouncing on a floor; a 3-D pair with
/// a static body, drag and a stiff spring; two bodies each on its own anchor spring, colliding.
struct AffineExactTests {
    static let scenes = [
        """
        {"dimensions": 1, "bodies": [
          {"name": "a", "position": [1], "radius": 0.1, "velocity": [-2]}, {"name": "b", "position": [2], "radius": 0.1},
          {"name": "c", "position": [3], "velocity": [3], "radius": 0.1, "mass": 2}],
         "springs": [{"body": "a", "anchor": [0], "stiffness": 20, "damping": 0.2, "restLength": 1},
          {"bodies": ["a", "b"], "stiffness": 30, "damping": 0.1, "restLength": 1},
          {"bodies": ["b", "c"], "stiffness": 20, "restLength": 1}],
         "planes": [{"name": "wall", "normal": [-1], "offset": -3.5, "restitution": 0.8},
          {"name": "floor", "normal": [1], "offset": 0.3, "restitution": 0.5}],
         "contacts": {"restitution": 0.9}, "drag": 0.05}
        """,
        """
        {"dimensions": 2, "bodies": [
          {"name": "a", "position": [0.5, 1], "velocity": [1, 0], "radius": 0.05},
          {"name": "b", "position": [1, 0.8], "radius": 0.05, "mass": 0.5},
          {"name": "c", "position": [1.5, 1.2], "velocity": [0, 2], "radius": 0.05}],
         "springs": [{"body": "a", "anchor": [0, 1.5], "stiffness": 40, "damping": 0.3},
          {"bodies": ["a", "b"], "stiffness": 25}, {"bodies": ["b", "c"], "stiffness": 25, "damping": 0.5}],
         "gravity": [0, -9.81], "planes": [{"name": "floor", "normal": [0, 1], "offset": 0, "restitution": 0.7}]}
        """,
        """
        {"dimensions": 3, "bodies": [
          {"name": "a", "position": [0.5, 1, 0], "velocity": [1, 0, 0.5]},
          {"name": "p", "position": [0, 0, 0], "static": true}, {"name": "b", "position": [1, 0.8, -0.3], "mass": 0.5}],
         "springs": [{"bodies": ["a", "p"], "stiffness": 40, "damping": 0.3}, {"bodies": ["a", "b"], "stiffness": 250}],
         "gravity": [0, -9.81, 1], "drag": 0.2}
        """,
        """
        {"dimensions": 2, "bodies": [
          {"name": "a", "position": [0.5, 1], "velocity": [1, 0], "radius": 0.1},
          {"name": "b", "position": [-0.5, 1], "velocity": [0, 3], "radius": 0.1, "mass": 2}],
         "springs": [{"body": "a", "anchor": [0, 1], "stiffness": 40, "damping": 0.3},
          {"body": "b", "anchor": [0, 1.2], "stiffness": 30}],
         "gravity": [0, -9.81], "contacts": {"restitution": 1},
         "planes": [{"name": "floor", "normal": [0, 1], "offset": 0, "restitution": 0.7}]}
        """
    ]

    /// Every sample within 1e-10 (rk8pd's own error at 1e-13 over 4 s is about 4e-12 on the stiff
    /// pair) and every impact at the same time within 1e-12.
    @Test(arguments: 0..<4)
    func matchesRK8PD(_ index: Int) throws {
        let scene = try PhysicsScene(json: Self.scenes[index])
        let exact = try Simulation(scene: scene).run(method: .exact, duration: 4, sampleRate: 10)
        let gsl = try GSLReference.simulate(
            scene, method: .rk8pd, stepping: .adaptive(tolerance: 1e-13), duration: 4, sampleRate: 10)
        #expect(exact.count == gsl.count && exact.events.count == gsl.events.count)
        #expect(index == 2 || !gsl.events.isEmpty)
        for (a, b) in zip(exact.events, gsl.events) {
            #expect(a.body == b.body && a.collider == b.collider && abs(a.time - b.time) <= 1e-12, "\(a) vs \(b)")
        }
        for s in 0..<gsl.count {
            for j in 0..<gsl.coordinateCount {
                #expect(
                    abs(exact.position(atSample: s, coordinate: j) - gsl.position(atSample: s, coordinate: j)) <= 1e-10)
            }
        }
    }

    /// Forces `exact` cannot follow are refused by name: rest lengths beyond 1-D, a 1-D spring
    /// whose ends pass each other, a scene past `largestAffineScene` coordinates.
    @Test func nonlinearOrLargeScenesAreRefused() throws {
        let twoD = try PhysicsScene(
            json:
                #"{"dimensions": 2, "bodies": [{"name": "a", "position": [0, 0]}, {"name": "b", "position": [1, 0]}],"#
                + #" "springs": [{"bodies": ["a", "b"], "stiffness": 1, "restLength": 1}]}"#)
        #expect(throws: KinemaError.self) { try Simulation(scene: twoD).run(method: .exact, duration: 1) }
        let passing = try PhysicsScene(
            json: #"{"dimensions": 1, "bodies": [{"name": "a", "position": [0], "velocity": [5]},"#
                + #" {"name": "b", "position": [1]}], "springs": [{"bodies": ["a", "b"], "stiffness": 1, "restLength": 1}]}"#
        )
        let error = #expect(throws: KinemaError.self) {
            try Simulation(scene: passing).run(method: .exact, duration: 3)
        }
        #expect(error?.description.contains("pass each other") == true)
        // 25 bodies in 2-D, springs of rest length 0: 50 coordinates.
        let bodies = (0..<25).map { #"{"name": "b\#($0)", "position": [\#($0), 0]}"# }
        let springs = (1..<25).map { #"{"bodies": ["b\#($0 - 1)", "b\#($0)"], "stiffness": 1}"# }
        let large = try PhysicsScene(
            json: #"{"dimensions": 2, "bodies": [\#(bodies.joined(separator: ","))],"#
                + #" "springs": [\#(springs.joined(separator: ","))]}"#)
        #expect(large.coordinateCount > ExactIntegrator<FlatVector>.largestAffineScene)
        #expect(throws: KinemaError.self) { try Simulation(scene: large).run(method: .exact, duration: 1) }
    }
}
