import Foundation
import Testing
@testable import Kinema

/// Impacts on elastic walls that fall exactly on sample times (where steps that land on samples
/// end on the wall): each is one event with the speed it came in with, and the ball leaves. The
/// fuzzing campaign saw a ball stick there (a second, zero-speed "impact" at the same instant).
/// Checked against the closed forms: a ball at constant speed between walls at 0 and 1 is a
/// triangle wave, and a ball dropped elastically from 1 with g = 8 lands every second from 0.5 s.
struct SampleTimeImpactTests {
    static let methods: [IntegrationMethod] = [.dopri5(tolerance: 1e-12), .dop853(tolerance: 1e-12), .exact, .rk4(timeStep: 1.0 / 1000)]
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
                let scene = try PhysicsScene(dimensions: 1, bodies: [PhysicsBody(name: "ball", position: [0.5], velocity: [speed])],
                                             planes: [Plane(name: "floor", normal: [1], offset: 0, restitution: 1),
                                                      Plane(name: "ceiling", normal: [-1], offset: -1, restitution: 1)])
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
                    #expect(abs(event.speedIn - speed) <= 1e-9 * speed && abs(event.speedOut - speed) <= 1e-9 * speed,
                            "\(label): at \(event.time) in \(event.speedIn), out \(event.speedOut)")
                    if trajectory.times.contains(where: { abs($0 - time) <= 1e-12 }) { onSampleTimes += 1 }
                }
                for i in 0..<trajectory.count {
                    let t = trajectory.times[i]
                    #expect(abs(trajectory.position(i) - Self.triangle(t, speed: speed)) <= 1e-9, "\(label): x(\(t))")
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
                #expect(abs(event.speedIn - 4) <= 1e-9 && abs(event.speedOut - 4) <= 1e-9,
                        "rate \(rate), \(method): at \(event.time) in \(event.speedIn), out \(event.speedOut)")
            }
            for i in 0..<trajectory.count {
                // Height 1 − 4s² for s the time from the nearest top (t = 0, 1, 2, …).
                let t = trajectory.times[i], s = t - t.rounded()
                #expect(abs(trajectory.position(i) - (1 - 4 * s * s)) <= 1e-9, "rate \(rate), \(method): x(\(t))")
            }
        }
    }
}
