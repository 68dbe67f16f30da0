import Foundation
import KinemaTestSupport
import Testing

@_spi(Engine) @testable import Kinema

/// Display-link frames: `rate` Hz with each duration jittered by ±`jitter` (uniform), seeded.
private func frames(rate: Double, jitter: Double, duration: Double, seed: UInt64) -> [Double] {
    var rng = SplitMix64(seed: seed)
    var result: [Double] = [], total = 0.0
    while total < duration {
        let d = (1 / rate) * (1 + jitter * Double.random(in: -1...1, using: &rng))
        result.append(d)
        total += d
    }
    return result
}

/// Rebound's `DampedSpring.advance` loop, transcribed: 1 ms RK4 steps, and after each frame the state is
/// *overwritten* with its interpolation between the last two steps (POP's solver does the same).
private func reboundLoop(k: Double, c: Double, frames: [Double]) -> [(time: Double, x: Double)] {
    let h = 0.001
    var x = 0.0, v = 0.0, previousX = 0.0, previousV = 0.0, accumulator = 0.0, time = 0.0
    var output = [(time: 0.0, x: 0.0)]
    func a(_ x: Double, _ v: Double) -> Double { -k * (x - 1) - c * v }
    for frame in frames {
        accumulator += min(frame, 0.064)
        time += frame
        while accumulator >= h {
            accumulator -= h
            if accumulator < h { previousX = x; previousV = v }
            let (k1x, k1v) = (v, a(x, v))
            let (k2x, k2v) = (v + 0.5 * h * k1v, a(x + 0.5 * h * k1x, v + 0.5 * h * k1v))
            let (k3x, k3v) = (v + 0.5 * h * k2v, a(x + 0.5 * h * k2x, v + 0.5 * h * k2v))
            let (k4x, k4v) = (v + h * k3v, a(x + h * k3x, v + h * k3v))
            x += h / 6 * (k1x + 2 * (k2x + k3x) + k4x)
            v += h / 6 * (k1v + 2 * (k2v + k3v) + k4v)
        }
        if accumulator > 0 {
            let alpha = accumulator / h
            x = x * alpha + previousX * (1 - alpha)
            v = v * alpha + previousV * (1 - alpha)
        }
        output.append((time, x))
    }
    return output
}

/// The first time a sampled curve reaches `level` (linear interpolation between samples).
private func crossing(_ samples: [(time: Double, x: Double)], _ level: Double) -> Double {
    for i in 1..<samples.count where samples[i].x >= level {
        let (t0, x0) = samples[i - 1], (t1, x1) = samples[i]
        return t0 + (level - x0) / (x1 - x0) * (t1 - t0)
    }
    return .nan
}

struct FrameDrivenTests {
    static let k = 170.0, c = 26.0

    /// RK4 with 1 ms substeps, output interpolated (cubic Hermite) and never fed back: within 1e-6
    /// of the analytic spring at every frame, whatever the frame rate and jitter.
    @Test(arguments: [60.0, 90.0, 120.0])
    func staysOnTheAnalyticSpring(rate: Double) throws {
        let spring = try DampedSpring(stiffness: Self.k, damping: Self.c)
        let exact = try spring.motion()
        let durations = frames(rate: rate, jitter: 0.3, duration: 2, seed: UInt64(rate))
        let trajectory = try Simulation(scene: PhysicsScene.spring(spring)).run(
            method: .rk4(timeStep: 0.001), frameDurations: durations)
        #expect(trajectory.count == durations.count + 1)
        for i in 0..<trajectory.count {
            #expect(abs(trajectory.position(atSample: i) - exact.position(at: trajectory.times[i])) <= 1e-6)
        }
    }

    /// Rebound's loop on the same frames runs slow: the times to reach 50 % and 90 % of the travel
    /// come later than the analytic ones by 2.5–8 %, more at higher frame rates.
    @Test(arguments: [60.0, 90.0, 120.0])
    func feedingTheInterpolationBackRunsSlow(rate: Double) throws {
        let exact = try DampedSpring(stiffness: Self.k, damping: Self.c).motion()
        let durations = frames(rate: rate, jitter: 0.3, duration: 2, seed: UInt64(rate))
        let rebound = reboundLoop(k: Self.k, c: Self.c, frames: durations)
        let reference = (0...20_000).map { (time: Double($0) * 1e-4, x: exact.position(at: Double($0) * 1e-4)) }
        for level in [0.5, 0.9] {
            let slowdown = crossing(rebound, level) / crossing(reference, level) - 1
            #expect(slowdown >= 0.025 && slowdown <= 0.08, "\(rate) Hz, \(level): \(slowdown * 100) % slow")
        }
    }
}

struct StabilityTests {
    /// Energy of an undamped spring (k = 100, m = 1, from 0 to 1) over 100 s at h = 1/60.
    static func energyDrift(_ method: IntegrationMethod) throws -> Double {
        let scene = try PhysicsScene.spring(DampedSpring(stiffness: 100, damping: 0))
        let system = SceneSystem<Double>(scene: scene)
        let trajectory = try Simulation(scene: scene).run(method: method, duration: 100, sampleRate: 60)
        let e0 = system.energy(of: system.initialState)
        var worst = 0.0
        for i in 0..<trajectory.count {
            let e = system.energy(
                of: PhaseState(position: trajectory.position(atSample: i), velocity: trajectory.velocity(atSample: i)))
            worst = max(worst, abs(e - e0) / e0)
        }
        return worst
    }

    @Test func symplecticMethodsKeepEnergyBounded() throws {
        let semiImplicit = try Self.energyDrift(.semiImplicitEuler(timeStep: 1.0 / 60))
        let verlet = try Self.energyDrift(.verlet(timeStep: 1.0 / 60))
        #expect(semiImplicit <= 0.10, "semi-implicit Euler: \(semiImplicit)")
        #expect(verlet <= 0.01, "Verlet: \(verlet)")
    }

    /// Frames given one at a time and rows handed on in chunks of 7: the same rows and impacts as
    /// the batch run over the same frames, on a bouncing drop and on a spring, and the lazy
    /// frames are the batch's frames.
    @Test(arguments: [
        IntegrationMethod.rk4(timeStep: 1.0 / 240), .semiImplicitEuler(timeStep: 1.0 / 480), .dopri5(tolerance: 1e-9)
    ])
    func streamedFramesEqualTheBatchRun(_ method: IntegrationMethod) throws {
        let lazy = try DisplayFrames.Jittered(rate: 90, jitter: 0.3, duration: 2, seed: 11)
        let frames = try DisplayFrames.jittered(rate: 90, jitter: 0.3, duration: 2, seed: 11)
        #expect(Array(lazy) == frames)
        for scene in [
            try PhysicsScene.drop(height: 1, restitution: 0.7),
            try PhysicsScene.spring(DampedSpring(stiffness: 170, damping: 4), initialVelocity: 3)
        ] {
            let batch = try Simulation(scene: scene).run(method: method, frameDurations: frames)
            var times: [Double] = [], positions: [Double] = [], velocities: [Double] = [], chunks = 0
            let summary = try Simulation(scene: scene).run(
                method: method, frameDurations: lazy, duration: 2, samplesPerChunk: 7
            ) {
                chunks += 1
                times += $0.times
                positions += $0.positions
                velocities += $0.velocities
            }
            #expect(chunks == (frames.count + 1 + 6) / 7)
            #expect(times.count == batch.count && times.last == 2)
            #expect(positions == batch.positions && velocities == batch.velocities)
            #expect(summary.events == batch.events && summary.steps == batch.steps)
        }
    }

    @Test func streamedFramesMustBePositiveAndEndAtTheDuration() throws {
        let scene = try PhysicsScene.spring(DampedSpring(stiffness: 100, damping: 2))
        for frames in [[0.1, -0.1, 0.1], [0.5, 0.5, 0.5]] {
            #expect(throws: KinemaError.self) {
                try Simulation(scene: scene).run(method: .rk4(timeStep: 1e-3), frameDurations: frames, duration: 1) {
                    _ in
                }
            }
        }
    }

    @Test func rk4BeyondItsStabilityLimitIsRefused() throws {
        let scene = try PhysicsScene.spring(DampedSpring(stiffness: 40_000, damping: 0))
        do {
            _ = try Simulation(scene: scene).run(method: .rk4(timeStep: 1.0 / 60), duration: 2)
            Issue.record("an unstable run returned a trajectory")
        } catch let SimulationError.unstable(_, _, _, largest, method) {
            #expect(method == "rk4")
            #expect(abs(largest - 2 * 2.0.squareRoot() / 200) <= 1e-15)
        }
    }

    @Test func explicitEulerOnAnUndampedSpringIsRefused() throws {
        let scene = try PhysicsScene.spring(DampedSpring(stiffness: 100, damping: 0))
        #expect(throws: SimulationError.self) {
            try Simulation(scene: scene).run(method: .euler(timeStep: 1.0 / 60), duration: 10)
        }
    }

    /// --integrator exact and dopri5 agree with the analytic spring within 1e-9 in every regime,
    /// with an initial velocity; the last sample is at exactly the duration.
    @Test(arguments: [(100.0, 2.0), (100.0, 20.0), (100.0, 60.0)], [IntegrationMethod.exact, .dopri5(tolerance: 1e-11)])
    func exactAndDopri5MatchTheAnalyticSpring(spring: (k: Double, c: Double), method: IntegrationMethod) throws {
        let s = try DampedSpring(stiffness: spring.k, damping: spring.c)
        let exact = try s.motion(from: -1, to: 2, initialVelocity: 7)
        let trajectory = try Simulation(scene: PhysicsScene.spring(s, from: -1, to: 2, initialVelocity: 7))
            .run(method: method, duration: 1.7, sampleRate: 60)
        #expect(trajectory.times.last == 1.7)
        for i in 0..<trajectory.count {
            #expect(abs(trajectory.position(atSample: i) - exact.position(at: trajectory.times[i])) <= 1e-9)
            #expect(abs(trajectory.velocity(atSample: i) - exact.velocity(at: trajectory.times[i])) <= 1e-8)
        }
    }
}
