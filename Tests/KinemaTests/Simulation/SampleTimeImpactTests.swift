import Foundation
import Testing

@testable import Kinema

/// Impacts on elastic walls that fall exactly on sample times (where steps that land on samples
/// end on the wall): each is one event with the speed it came in with, and the ball leaves. The
/// fuzzing campaign saw a ball stick there (a second, zero-speed "impact" at the same instant).
/// Checked against the closed forms: a ball at constant speed between walls at 0 and 1 is a
/// triangle wave, and a ball dropped elastically from 1 with g = 8 lands every second from 0.5 s.
struct SampleTimeImpactTests {
    static let methods: [IntegrationMethod] = [
        .dopri5(tolerance: 1e-12), .dop853(tolerance: 1e-12), .exact, .rk4(timeStep: 1.0 / 1000)
    ]
    /// Sample rates whose sample times include 0.5 + k, 0.25 + k/2 and 0.125 + k/4.
    static let rates: [Double] = [2, 8, 10, 60, 1000]

    /// Where a ball from 0.5 moving at `speed` between walls at 0 and 1 is at t: the triangle wave.
    static func triangle(_ t: Double, speed: Double) -> Double {
        let phase = (0.5 + speed * t).truncatingRemainder(dividingBy: 2)
        return phase <= 1 ? phase : 2 - phase
    }

    @Test(arguments: methods)
    func betweenTwoElasticWallsEveryImpactIsOneAndTheBallLeaves(_ method: IntegrationMethod) throws {
        var onSampleTimes = 0
        for speed in [1.0, 2, 4, 0.5, 1.25] {
            for rate in Self.rates {
                let scene = try PhysicsScene(
                    dimensions: 1,
                    bodies: [PhysicsBody(name: "ball", position: SIMD3(0.5, 0, 0), velocity: SIMD3(speed, 0, 0))],
                    planes: [
                        Plane(name: "floor", normal: SIMD3(1, 0, 0), offset: 0, restitution: 1),
                        Plane(name: "ceiling", normal: SIMD3(-1, 0, 0), offset: -1, restitution: 1)
                    ])
                let duration = 5.0
                let trajectory = try Simulation(scene: scene).run(method: method, duration: duration, sampleRate: rate)
                // Impacts at (0.5 + k)/speed, alternately on the ceiling and the floor.
                let expected = (0..<Int((duration * speed - 0.5).rounded(.up))).map { (0.5 + Double($0)) / speed }
                let label = "speed \(speed), rate \(rate), \(method)"
                // Speed 0.5 reaches the ceiling at 5 s, the end: within a rounding before it or not at all.
                let events = trajectory.events.filter { abs($0.time - duration) > 1e-9 }
                #expect(events.count == expected.count, "\(label): \(events.map(\.time))")
                for (event, time) in zip(events, expected) {
                    #expect(abs(event.time - time) <= 1e-9, "\(label): impact at \(event.time), expected \(time)")
                    #expect(
                        abs(event.speedIn - speed) <= 1e-9 * speed && abs(event.speedOut - speed) <= 1e-9 * speed,
                        "\(label): at \(event.time) in \(event.speedIn), out \(event.speedOut)")
                    if trajectory.times.contains(where: { abs($0 - time) <= 1e-12 }) { onSampleTimes += 1 }
                }
                for i in 0..<trajectory.count {
                    let t = trajectory.times[i]
                    #expect(
                        abs(trajectory.position(atSample: i) - Self.triangle(t, speed: speed)) <= 1e-9,
                        "\(label): x(\(t))")
                }
            }
        }
        // 125 of the 215 impacts fall on sample times: the case under test.
        #expect(onSampleTimes >= 100, "\(onSampleTimes) impacts on sample times")
    }

    @Test(arguments: methods)
    func anElasticDropOnSampleTimesKeepsBouncing(_ method: IntegrationMethod) throws {
        for rate in Self.rates {
            let trajectory = try Simulation(scene: PhysicsScene.drop(height: 1, gravity: 8, restitution: 1))
                .run(method: method, duration: 6, sampleRate: rate)
            // √(2h/g) = 0.5 s down; 4 units/s at the floor; up and down again in 1 s.
            let times = trajectory.events.map(\.time)
            #expect(times.count == 6, "rate \(rate), \(method): \(times)")
            for (k, event) in trajectory.events.enumerated() {
                #expect(abs(event.time - (0.5 + Double(k))) <= 1e-9, "rate \(rate), \(method): \(times)")
                #expect(
                    abs(event.speedIn - 4) <= 1e-9 && abs(event.speedOut - 4) <= 1e-9,
                    "rate \(rate), \(method): at \(event.time) in \(event.speedIn), out \(event.speedOut)")
            }
            for i in 0..<trajectory.count {
                // Height 1 − 4s² for s the time from the nearest top (t = 0, 1, 2, …).
                let t = trajectory.times[i], s = t - t.rounded()
                #expect(
                    abs(trajectory.position(atSample: i) - (1 - 4 * s * s)) <= 1e-9, "rate \(rate), \(method): x(\(t))")
            }
        }
    }
}

/// A grid of starts whose plane impacts land on a sample time, computed as the samples are
/// (k/rate in floating point) and one ulp either side, in 1-D, 2-D and 3-D, on walls, floors and
/// slanted planes, for every integrator that takes colliders: one event each, speed out = e ×
/// speed in, and the straight lines before and after it to 1e-9.
struct SampleTimeImpactGridTests {
    static let methods: [IntegrationMethod] = [
        .euler(timeStep: 1.0 / 600), .semiImplicitEuler(timeStep: 1.0 / 600), .verlet(timeStep: 1.0 / 600),
        .rk4(timeStep: 1.0 / 600), .adams(timeStep: 1.0 / 600, order: 5), .dopri5(tolerance: 1e-9),
        .dop853(tolerance: 1e-9), .exact
    ]
    /// Unit normals: walls and floors along the axes, and slanted planes.
    static let normals: [[Double]] = [[1], [-1], [0, 1], [-1, 0], [0.6, 0.8], [0, 0, 1], [-1, 0, 0], [0.48, 0.6, 0.64]]

    @Test(arguments: methods)
    func impactsOnSampleTimesAreOneEventAndTheMotionGoesOn(_ method: IntegrationMethod) throws {
        var runs = 0
        for normal in Self.normals {
            let d = normal.count, offset = normal[0] < 0 ? -1.0 : 0.0, radius = 0.1
            // A tangential drift along the first axis the normal leaves free (none in 1-D).
            let tangent: [Double] =
                d == 1 ? [0] : (0..<d).map { normal[$0] == 0 && $0 == normal.firstIndex(of: 0) ? 1 : 0 }
            for (speed, rate, k) in [(1.5, 60.0, 10), (3.0, 60.0, 8), (0.7, 10.0, 3), (1.25, 60.0, 13)] {
                let time = Double(k) / rate
                let contact = normal.map { (offset + radius) * $0 }
                let velocity = (0..<d).map { -speed * normal[$0] + 0.3 * tangent[$0] }
                let exactStart = (0..<d).map { contact[$0] - velocity[$0] * time }
                let axis = normal.firstIndex { $0 != 0 }!
                for nudge in [-1, 0, 1] {
                    var start = exactStart
                    if nudge < 0 {
                        start[axis] = start[axis].nextDown
                    } else if nudge > 0 {
                        start[axis] = start[axis].nextUp
                    }
                    for restitution in [1.0, 0.5] {
                        try check(
                            method, normal, offset: offset, start: start, velocity: velocity, time: time, rate: rate,
                            restitution: restitution, speed: speed)
                        runs += 1
                    }
                }
            }
        }
        #expect(runs == Self.normals.count * 4 * 3 * 2)
    }

    func check(
        _ method: IntegrationMethod, _ normal: [Double], offset: Double, start: [Double], velocity: [Double],
        time: Double, rate: Double, restitution: Double, speed: Double
    ) throws {
        let d = normal.count
        let scene = try PhysicsScene(
            dimensions: d,
            bodies: [
                PhysicsBody(
                    name: "ball", position: SIMD3(sceneComponents: start), velocity: SIMD3(sceneComponents: velocity),
                    radius: 0.1)
            ],
            planes: [
                Plane(name: "plane", normal: SIMD3(sceneComponents: normal), offset: offset, restitution: restitution)
            ])
        let trajectory = try Simulation(scene: scene).run(method: method, duration: time + 0.5, sampleRate: rate)
        let label = "\(method), normal \(normal), start \(start), impact at \(time), e = \(restitution)"
        #expect(
            trajectory.events.count == 1, "\(label): \(trajectory.events.map { ($0.time, $0.speedIn, $0.speedOut) })")
        guard let event = trajectory.events.first else { return }
        #expect(abs(event.time - time) <= 1e-9, "\(label): at \(event.time)")
        #expect(
            abs(event.speedIn - speed) <= 1e-9 * speed && abs(event.speedOut - restitution * speed) <= 1e-9 * speed,
            "\(label): in \(event.speedIn), out \(event.speedOut)")
        // After the impact the normal component turns and shrinks by e: v' = v − (1 + e)(v·n)n.
        let vn = zip(velocity, normal).map(*).reduce(0, +)
        let after = (0..<d).map { velocity[$0] - (1 + restitution) * vn * normal[$0] }
        for i in 0..<trajectory.count {
            let t = trajectory.times[i]
            for j in 0..<d {
                let contact = start[j] + velocity[j] * time
                let expected = t <= time ? start[j] + velocity[j] * t : contact + after[j] * (t - time)
                #expect(
                    abs(trajectory.position(atSample: i, coordinate: j) - expected) <= 1e-9,
                    "\(label): x\(j)(\(t)) = \(trajectory.position(atSample: i, coordinate: j)), expected \(expected)")
            }
        }
    }
}
