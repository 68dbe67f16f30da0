import Foundation
import Kinema
import KinemaTestSupport
import Testing

/// The programs a new developer writes in the first hour from the README and the articles, with
/// only what `import Kinema` gives an app, each measured against a reference of its own: a 2-D
/// ball scene stepped live and as a batch, springs, drops and the jelly curve baked and exported
/// to every format, and mistakes made on purpose. (The card grabbed mid-flight and the 2-D value
/// handed off by a gesture are Getting Started's and docs/library.md's programs, beside this file.)
@Suite struct FirstHourTests {
    static let g = 9.81

    /// Three balls of radius 0.1 in a 2 m box under gravity, one thrown sideways.
    static func ballsInABox() throws -> PhysicsScene {
        let balls = try [
            PhysicsBody(name: "red", position: SIMD3(0.5, 1.2, 0), velocity: SIMD3(2, 0, 0), radius: 0.1),
            PhysicsBody(name: "green", position: SIMD3(1.0, 0.6, 0), radius: 0.1),
            PhysicsBody(name: "blue", position: SIMD3(1.5, 1.5, 0), velocity: SIMD3(-1, 1, 0), radius: 0.1)
        ]
        let walls = try [
            Plane.floor(dimensions: 2, restitution: 0.7),
            Plane(name: "left", normal: SIMD3(1, 0, 0), offset: 0, restitution: 0.7),
            Plane(name: "right", normal: SIMD3(-1, 0, 0), offset: -2, restitution: 0.7)
        ]
        return try PhysicsScene(
            dimensions: 2, bodies: balls, gravity: SIMD3(0, -g, 0), planes: walls,
            contacts: .init(restitution: 0.7))
    }

    /// Stepped by `PhysicsSimulator` one display frame at a time, the balls are where the batch
    /// run puts them at the same times (RK4 at 1/240 s: the same steps, so the same bits), the
    /// impacts are the batch's, and the first floor impact comes when free fall says.
    @Test func aBallSceneSteppedLiveIsTheBatchRun() throws {
        let scene = try Self.ballsInABox()
        let method = IntegrationMethod.rk4(timeStep: 1.0 / 240)
        let batch = try Simulation(scene: scene).run(method: method, duration: 2, sampleRate: 60)
        var live = try PhysicsSimulator(scene: scene, method: method)
        var impacts: [ImpactEvent] = [], worst = 0.0
        for (i, time) in batch.times.enumerated().dropFirst() {
            impacts += live.advance(to: time)
            for body in scene.bodies.indices {
                let dx = live.position(ofBody: body) - batch.position(atSample: i, ofBody: body)
                let dv = live.velocity(ofBody: body) - batch.velocity(atSample: i, ofBody: body)
                worst = max(worst, abs(dx.x), abs(dx.y), abs(dv.x), abs(dv.y))
            }
        }
        // The same steps; the frames read them as the samples do, up to the last bits (metres, m/s).
        #expect(worst <= 1e-13, "live − batch up to \(worst)")
        #expect(live.failure == nil && impacts.count == batch.events.count && !impacts.isEmpty)
        for (a, b) in zip(impacts, batch.events) {
            #expect(a.bodyIndex == b.bodyIndex && a.hit == b.hit && abs(a.time - b.time) <= 1e-13)
        }
        // Green falls from rest: it reaches the floor (its centre at r) after √(2(y0 − r)/g),
        // unless a ball has hit it first, which the events would show.
        let green = try #require(scene.index(ofBody: "green"))
        let first = try #require(impacts.first { $0.bodyIndex == green || $0.hit == .body(green) })
        #expect(first.hit == .plane(0) && abs(first.time - (2 * 0.5 / Self.g).squareRoot()) <= 1e-9)
        for sample in 0..<batch.count {
            for p in batch.positions(ofBody: green)[sample...sample] {
                #expect(p.y >= 0.1 - 1e-8 && p.x >= 0.1 - 1e-8 && p.x <= 1.9 + 1e-8)
            }
        }
    }

    /// What a fit's JSON export plays, read back as an app's player would: values, key times and
    /// per-segment cubic beziers, evaluated at `u` (a fraction of the duration).
    struct PlayedJSON {
        let duration: Double, maxError: Double
        let keyTimes: [Double], values: [Double], functions: [CubicBezierTimingFunction]

        init(_ text: String) throws {
            let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            duration = try #require(json["duration"] as? Double)
            maxError = try #require(json["maxError"] as? Double)
            keyTimes = try #require(json["keyTimes"] as? [Double])
            values = try #require(json["values"] as? [Double])
            functions = try #require(json["timingFunctions"] as? [[Double]]).map {
                try CubicBezierTimingFunction(x1: $0[0], y1: $0[1], x2: $0[2], y2: $0[3])
            }
        }

        func value(at u: Double) -> Double {
            let i = min(max((keyTimes.lastIndex { $0 <= u } ?? 0), 0), values.count - 2)
            let progress = (u - keyTimes[i]) / (keyTimes[i + 1] - keyTimes[i])
            return values[i] + (values[i + 1] - values[i]) * functions[i].value(at: min(max(progress, 0), 1))
        }
    }

    /// A drop from 1 m with restitution 0.5, from free fall: parabolas between impacts, each
    /// bounce leaving at e times the impact's speed until one leaves slower than 0.01 m/s.
    static func droppedBall(at t: Double) -> Double {
        var start = (2 / g).squareRoot(), speed = g * start * 0.5
        if t < start { return 1 - g * t * t / 2 }
        while speed >= 0.01 {
            let flight = 2 * speed / g
            if t < start + flight { return speed * (t - start) - g * (t - start) * (t - start) / 2 }
            start += flight
            speed *= 0.5
        }
        return 0
    }

    /// A spring, a drop and the jelly curve, each baked from its closed form to 0.001 of its
    /// travel and exported to every format: the JSON played back is within its stated error of
    /// the physics at 2,001 times (the other formats are played by Chromium, ThorVG and rlottie in
    /// `make players`), and every export is the one thing its consumer expects.
    @Test(arguments: ["spring", "drop", "jelly"])
    func aMotionBakedAndExportedToEveryFormat(_ name: String) throws {
        let spring = DampedSpring.bouncy
        let motion: (source: MotionSource, exact: (Double) -> Double)
        switch name {
        case "spring":
            let closed = try DampedHarmonicOscillator(
                mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping, target: 300,
                initialPosition: 0, initialVelocity: 0)
            motion = (try MotionSource(spring: spring, from: 0, to: 300), { closed.position(at: $0) })
        case "drop":
            motion = (try MotionSource(dropFrom: 1), Self.droppedBall)
        default:
            motion = (try MotionSource(easing: .dampedCosine(.jelly)), { 1 - exp(-5 * $0) * cos(30 * $0) })
        }
        let fit = try KeyframeBaker.bake(motion.source, tolerance: 0.001, keyPath: "position.y")
        let samples = grid(0, motion.source.duration, count: 2_001).map(motion.exact)
        let travel = samples.max()! - samples.min()!
        #expect(fit.exportedMaxError <= 0.001 * travel)

        let played = try PlayedJSON(KeyframeExport.json(fit))
        #expect(played.maxError <= 0.001 * travel && played.keyTimes.count == fit.keyframeCount)
        // The spring's source ends exactly on its target: its closed form is within 0.001 × the
        // travel of the target there, which the bound allows for besides the fit's error.
        let ending = name == "spring" ? 0.001 * 300 : 0
        for (i, t) in grid(0, motion.source.duration, count: 2_001).enumerated() {
            let error = abs(played.value(at: t / played.duration) - samples[i])
            #expect(error <= played.maxError + ending, "\(name) at \(t) s")
        }

        let css = KeyframeExport.css(fit, name: "\(name)-motion")
        #expect(css.contains("@keyframes \(name)-motion") && css.contains("cubic-bezier("))
        let lottie = try #require(
            try JSONSerialization.jsonObject(with: Data(KeyframeExport.lottie([fit]).utf8)) as? [String: Any])
        #expect((lottie["layers"] as? [Any])?.count == 1 && lottie["fr"] as? Double == 60)
        #expect(KeyframeExport.swift(fit, name: "\(name)Animation").contains("CAKeyframeAnimation"))
        let swiftUI = KeyframeExport.swiftUI(fit, name: "\(name)Motion")
        #expect(
            swiftUI.contains("struct \(name.capitalized)MotionValues")
                && swiftUI.contains("func \(name)MotionKeyframes()"))
    }

    /// Mistakes on purpose, with data from outside: each throws a `KinemaError` whose message,
    /// shown as `localizedDescription` the way an app shows errors, names the value and the rule.
    @Test func mistakesGetAClearMessage() throws {
        func message(_ make: () throws -> Void) -> String? {
            do {
                try make()
                return nil
            } catch {
                return (error as? KinemaError).map { _ in error.localizedDescription }
            }
        }
        let cases: [(String, () throws -> Void)] = [
            ("duration must be", { _ = try DampedSpring(duration: 0, bounce: 0) }),
            ("body 'ball' mass must be", { _ = try PhysicsBody(name: "ball", mass: -1, position: .zero) }),
            ("tolerance must be", { _ = try KeyframeBaker.bake(MotionSource(dropFrom: 1), tolerance: 0) }),
            ("restitution must be", { _ = try MotionSource(dropFrom: 1, restitution: 1) }),
            ("'dimensions' must be 1, 2 or 3", { _ = try PhysicsScene(json: #"{"dimensions": 4, "bodies": []}"#) }),
            ("duration must be", { _ = try Simulation(scene: .drop()).run(method: .exact, duration: .nan) })
        ]
        for (expected, make) in cases {
            let text = try #require(message(make), "no KinemaError for \(expected)")
            #expect(text.contains(expected) && text.contains("(got "), "\(expected): \(text)")
        }
    }
}
