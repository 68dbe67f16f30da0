import Foundation
import Testing

@testable import Kinema

/// Scenes baked onto a canvas: one track per body, x and y on the same knots, within the
/// tolerance in pixels of the simulated trajectory.
@Suite struct SceneKeyframesTests {
    /// Three balls bouncing in a box with each other (the scene of examples/three-balls-box-2d.json).
    static func box() throws -> PhysicsScene {
        let balls = [
            ("red", 0.08, SIMD3(0.25, 0.8, 0), SIMD3(1.2, 0.5, 0)),
            ("green", 0.06, SIMD3(0.5, 0.5, 0), SIMD3(-0.8, 1.5, 0)),
            ("blue", 0.1, SIMD3(0.75, 0.3, 0), SIMD3(0.4, -1.0, 0))
        ]
        let bodies = try balls.map { try PhysicsBody(name: $0.0, position: $0.2, velocity: $0.3, radius: $0.1) }
        let planes = try [
            Plane(name: "floor", normal: SIMD3(0, 1, 0), offset: 0, restitution: 0.8),
            Plane(name: "left", normal: SIMD3(1, 0, 0), offset: 0, restitution: 0.8),
            Plane(name: "right", normal: SIMD3(-1, 0, 0), offset: -1, restitution: 0.8),
            Plane(name: "ceiling", normal: SIMD3(0, -1, 0), offset: -1, restitution: 0.8)
        ]
        return try PhysicsScene(
            dimensions: 2, bodies: bodies, gravity: SIMD3(0, -9.81, 0), planes: planes,
            contacts: PhysicsScene.Contacts(restitution: 0.9))
    }

    /// Every body within the tolerance (pixels, distance) of its simulated position at every one
    /// of 6,000 samples; x and y share their keyTimes; each impact of the body whose corner shows
    /// is a knot of both.
    @Test func everyBodyFollowsItsTrajectoryOnTheCanvas() throws {
        let trajectory = try Simulation(scene: try Self.box())
            .run(method: .dopri5(tolerance: 1e-11), duration: 3, sampleRate: 2_000)
        let mapping = try CanvasMapping.fitting(trajectory, width: 800, height: 600)
        let baked = try SceneKeyframes(trajectory: trajectory, mapping: mapping, tolerance: 0.5)
        #expect(baked.bodies.map(\.name) == ["red", "green", "blue"])
        var joined = 0
        for (b, body) in baked.bodies.enumerated() {
            #expect(body.x.animation.keyTimes == body.y.animation.keyTimes)
            #expect(
                body.maxError <= 0.8 * 0.5 + 1e-12
                    && abs(body.radius - mapping.pixelsPerUnit * [0.08, 0.06, 0.1][b]) < 1e-9)
            // An impact between two stretches of flight each longer than τ, at a velocity jump of
            // Δv pixels a second, makes a corner about Δv τ / 8 deep (a floor bounce's: the arcs'
            // height). One segment cannot pass a corner deeper than twice the tolerance within it:
            // such an impact is a knot. The shallower ones (a ball's last bounces on the floor,
            // 0.4 px high) are joined where one segment across them meets the bound.
            let knots = body.x.animation.keyTimes.map { $0 * baked.duration }
            let impacts = trajectory.events.compactMap { event in
                event.jumps.first { $0.body == b }.map { (time: event.time, jump: $0) }
            }
            for (i, impact) in impacts.enumerated() {
                let before = i == 0 ? impact.time : impact.time - impacts[i - 1].time
                let after = i == impacts.count - 1 ? baked.duration - impact.time : impacts[i + 1].time - impact.time
                let jump = impact.jump.after - impact.jump.before
                let depth =
                    mapping.pixelsPerUnit * (jump.x * jump.x + jump.y * jump.y).squareRoot() * min(before, after) / 8
                let isKnot = knots.contains { abs($0 - impact.time) <= 1e-9 }
                #expect(
                    isKnot || depth < 2 * 0.5, "\(body.name)'s impact at \(impact.time) (\(depth) px) is not a knot")
                joined += isKnot ? 0 : 1
            }
            var worst = 0.0
            for sample in stride(from: 0, to: trajectory.count, by: 1) {
                let t = trajectory.times[sample], u = t / baked.duration
                let x = mapping.x(trajectory.position(atSample: sample, coordinate: 2 * b))
                let y = mapping.y(trajectory.position(atSample: sample, coordinate: 2 * b + 1))
                let dx = body.x.animation.scalarValue(at: u) - x, dy = body.y.animation.scalarValue(at: u) - y
                worst = max(worst, (dx * dx + dy * dy).squareRoot())
            }
            #expect(worst <= body.maxError + 1e-9 && worst > 0, "\(body.name): \(worst)")
        }
        #expect(baked.maxError <= 0.5)
        #expect(joined > 0, "no shallow impact was joined")
    }

    /// The 12-ball pile for 10 s: segments joined across its resting balls' chatter span seconds,
    /// and each is measured on the pieces it joined (65 samples over 8 s would step over a bounce;
    /// b6 was played 3.2 px off at a stated 0.44). Every body within its stated error at every
    /// one of 5,001 samples, and that within the tolerance.
    @Test func longJoinedSegmentsAreMeasuredOnWhatTheyJoin() throws {
        let trajectory = try Simulation(scene: try MoreauJeanPileTests.pile())
            .run(method: .dopri5(tolerance: 1e-11), duration: 10, sampleRate: 500)
        let mapping = try CanvasMapping.fitting(trajectory, width: 640, height: 360)
        let baked = try SceneKeyframes(trajectory: trajectory, mapping: mapping, tolerance: 0.5)
        for (b, body) in baked.bodies.enumerated() {
            var worst = 0.0
            for sample in 0..<trajectory.count {
                let u = trajectory.times[sample] / baked.duration
                let dx =
                    body.x.animation.scalarValue(at: u)
                    - mapping.x(trajectory.position(atSample: sample, coordinate: 2 * b))
                let dy =
                    body.y.animation.scalarValue(at: u)
                    - mapping.y(trajectory.position(atSample: sample, coordinate: 2 * b + 1))
                worst = max(worst, (dx * dx + dy * dy).squareRoot())
            }
            #expect(worst <= body.maxError + 1e-9, "\(body.name): played \(worst) px off, stated \(body.maxError)")
        }
        #expect(baked.maxError <= 0.5)
    }

    /// A fit put on more keyTimes (each segment cut exactly where the new times fall) plays the
    /// same values: within rounding of the original at 2,001 times.
    @Test(arguments: [[0.31, 0.52, 0.55, 0.97], [0.05], [0.2, 0.4, 0.6, 0.8]])
    func cuttingASegmentKeepsItsCurve(_ cuts: [Double]) throws {
        let source = try MotionSource(easing: try Easing(name: "damped-cosine(5,30)"))
        let fit = try KeyframeBaker.bake(source, tolerance: 0.001)
        let times = Array(Set(fit.animation.keyTimes + cuts)).sorted()
        let cut = try SceneKeyframes.on(times, fit.animation, source)
        #expect(cut.keyTimes == times)
        for i in 0...2_000 {
            let u = Double(i) / 2_000
            #expect(abs(cut.scalarValue(at: u) - fit.animation.scalarValue(at: u)) <= 1e-9, "u = \(u)")
        }
    }

    /// The fitted canvas holds every body at every sample, y flipped: higher in the scene is
    /// higher on the screen.
    @Test func theFittedCanvasHoldsTheScene() throws {
        let trajectory = try Simulation(scene: try Self.box()).run(
            method: .rk4(timeStep: 1e-3), duration: 1, sampleRate: 60)
        let m = try CanvasMapping.fitting(trajectory, width: 640, height: 480, margin: 10)
        for sample in 0..<trajectory.count {
            for b in 0..<3 {
                let x = m.x(trajectory.position(atSample: sample, coordinate: 2 * b))
                let y = m.y(trajectory.position(atSample: sample, coordinate: 2 * b + 1))
                #expect(x >= 10 - 1e-9 && x <= 630 + 1e-9 && y >= 10 - 1e-9 && y <= 470 + 1e-9)
            }
        }
        #expect(m.y(1) < m.y(0))
    }

    @Test func numbersAreRoundedToTheirDecimals() {
        #expect(KeyframeExport.rounded(0.1 * 3, decimals: 2) == "0.3")
        #expect(KeyframeExport.rounded(800, decimals: 1) == "800")
        #expect(KeyframeExport.rounded(-0.004, decimals: 2) == "0")
        #expect(KeyframeExport.rounded(1234.5678, decimals: -2) == "1200")
        #expect(KeyframeExport.rounded(0.123456789, decimals: 4) == "0.1235")
    }

    @Test func badInputIsRefused() throws {
        let line = try Simulation(scene: try PhysicsScene.drop(height: 1)).run(
            method: .exact, duration: 1, sampleRate: 60)
        #expect(throws: KinemaError.self) { try CanvasMapping.fitting(line) }
        let trajectory = try Simulation(scene: try Self.box()).run(
            method: .rk4(timeStep: 1e-3), duration: 0.1, sampleRate: 60)
        let mapping = try CanvasMapping.fitting(trajectory)
        #expect(throws: KinemaError.self) {
            try SceneKeyframes(trajectory: trajectory, mapping: mapping, strategy: .turningPoints)
        }
        #expect(throws: KinemaError.self) { try SceneKeyframes(trajectory: trajectory, mapping: mapping, tolerance: 0) }
        #expect(throws: KinemaError.self) {
            try CanvasMapping(width: 0, height: 10, pixelsPerUnit: 1, origin: .zero)
        }
        #expect(throws: KinemaError.self) {
            try CanvasMapping(width: 10, height: 10, pixelsPerUnit: .nan, origin: .zero)
        }
    }

    /// A plane's line on the canvas: its ends on the plane (n·x = offset, back in scene units)
    /// and on the canvas's border, for planes at any angle; none for a plane off the canvas or
    /// one that faces the viewer.
    @Test(arguments: [
        (SIMD3(0.0, 1, 0), 0.0), (SIMD3(1.0, 0, 0), 0.3), (SIMD3(1.0, 1, 0), 0.5), (SIMD3(-0.3, 1, 0), -0.2),
        (SIMD3(2.0, -7, 0), 0.05)
    ])
    func aPlaneIsTheLineItsSurfaceDrawsAcrossTheCanvas(_ normal: SIMD3<Double>, _ offset: Double) throws {
        let plane = try Plane(name: "p", normal: normal, offset: offset, restitution: 1)
        for flipsY in [true, false] {
            let m = try CanvasMapping(
                width: 640, height: 480, pixelsPerUnit: 400, origin: SIMD2(100, 400), flipsY: flipsY)
            let (from, to) = try #require(m.segment(of: plane))
            let n = normal / (normal * normal).sum().squareRoot()
            for end in [from, to] {
                let x = (end.x - m.origin.x) / m.pixelsPerUnit
                let y = (end.y - m.origin.y) / (flipsY ? -m.pixelsPerUnit : m.pixelsPerUnit)
                // Pixels: the canvas's coordinates are held to about 1e-13 of their size.
                #expect(abs(n.x * x + n.y * y - offset) * m.pixelsPerUnit <= 1e-10)
                #expect(min(abs(end.x), abs(end.x - 640), abs(end.y), abs(end.y - 480)) <= 1e-10)
                #expect(end.x >= -1e-10 && end.x <= 640 + 1e-10 && end.y >= -1e-10 && end.y <= 480 + 1e-10)
            }
            #expect(((to - from) * (to - from)).sum() > 1)
        }
        let m = try CanvasMapping(width: 640, height: 480, pixelsPerUnit: 400, origin: SIMD2(100, 400))
        #expect(m.segment(of: try Plane(name: "far", normal: normal, offset: offset + 1e6, restitution: 1)) == nil)
        #expect(m.segment(of: try Plane(name: "facing", normal: SIMD3(0, 0.1, 1), offset: 0, restitution: 1)) == nil)
    }

    /// Planes are drawn only when asked for, each beneath the bodies in every export, named and at
    /// its place; the ceiling the balls never reach is off the fitted canvas and not drawn.
    @Test func planesAreDrawnWhenAskedFor() throws {
        let trajectory = try Simulation(scene: try Self.box()).run(
            method: .dopri5(tolerance: 1e-10), duration: 1, sampleRate: 600)
        let mapping = try CanvasMapping.fitting(trajectory, width: 800, height: 600)
        let plain = try SceneKeyframes(trajectory: trajectory, mapping: mapping)
        var drawn = plain
        drawn.drawPlanes(of: trajectory.scene)
        #expect(plain.planes.isEmpty)
        #expect(drawn.planes.map(\.name) == ["floor", "left", "right"])
        let floor = drawn.planes[0]
        #expect(floor.from == SIMD2(0, mapping.y(0)) && floor.to == SIMD2(800, mapping.y(0)))
        #expect(abs(drawn.planes[2].from.x - mapping.x(1)) <= 1e-12)
        #expect(!KeyframeExport.json(plain).contains("planes"))
        #expect(KeyframeExport.json(drawn).contains("\"planes\": [\n    {\"name\": \"floor\", \"from\": [0, "))
        let css = KeyframeExport.css(drawn)
        #expect(css.contains(".kinema-plane-floor {") && css.contains(".kinema-plane-right {"))
        #expect(css.contains("isolation: isolate") && !KeyframeExport.css(plain).contains("isolation"))
        let lottie = try #require(
            try JSONSerialization.jsonObject(with: Data(KeyframeExport.lottie(drawn).utf8)) as? [String: Any])
        let layers = try #require(lottie["layers"] as? [[String: Any]])
        #expect(
            layers.compactMap { $0["nm"] as? String } == [
                "red", "green", "blue", "plane floor", "plane left", "plane right"
            ])
        #expect(KeyframeExport.swift(drawn).contains("func makePlanesPath() -> CGPath"))
        #expect(KeyframeExport.swiftUI(drawn).contains("func kinemaPlanes() -> Path"))
        #expect(!KeyframeExport.swiftUI(plain).contains("Planes"))
    }
}
