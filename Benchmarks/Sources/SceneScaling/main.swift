import Foundation
@_spi(Engine) import Kinema
import OdeintBaseline

// ns per body-step on the 3-D spring chain, Kinema's whole run (`Simulation.run`, as
// `kinema simulate --scene` calls it, one sample at the end) next to Boost.Odeint on the same
// scene, measured in this process, best of `repeats`. Run: swift run -c release SceneScaling

/// The chain the odeint baseline builds (odeint_baseline.h).
func chain(_ n: Int) throws -> PhysicsScene {
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

/// The chain as a scene file for `kinema simulate --scene`.
func chainJSON(_ n: Int) -> String {
    let bodies = (0..<n).map { i in
        "{\"name\": \"b\(i)\", \"mass\": 0.2, \"position\": [\(0.3 * Double(i + 1)), 0, \(0.05 * Double(i))]}"
    }
    let springs = (0..<n).map { i in
        (i == 0 ? "{\"body\": \"b0\", \"anchor\": [0, 0, 0]" : "{\"bodies\": [\"b\(i - 1)\", \"b\(i)\"]")
            + ", \"stiffness\": 80, \"damping\": 0.3, \"restLength\": 0.25}"
    }
    return "{\"dimensions\": 3, \"gravity\": [0, 0, -9.81], \"bodies\": [\(bodies.joined(separator: ", "))], "
        + "\"springs\": [\(springs.joined(separator: ", "))]}"
}

/// Seconds for one `kinema simulate` process (start-up, scene parsing and CSV included), spawned
/// and reaped directly: Foundation's `Process.waitUntilExit` polls, which rounds times to 0.1 s.
func cliSeconds(_ executable: String, _ arguments: [String]) throws -> Double {
    let argv = ([executable, "simulate"] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0, status: Int32 = 0
    let time = seconds {
        guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else {
            fatalError("cannot start \(executable)")
        }
        waitpid(pid, &status, 0)
    }
    guard status == 0 else { fatalError("kinema \(arguments) exited with status \(status)") }
    return time
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
}

func best(_ repeats: Int, _ run: () throws -> Double) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<repeats { best = min(best, try run()) }
    return best
}

/// The best of `repeats` runs of each, alternating, so both see the same machine (a noisy one
/// slows whole stretches of a run, not single calls).
func interleaved(_ repeats: Int, _ first: () throws -> Double, _ second: () throws -> Double) rethrows -> (
    Double, Double
) {
    var a = Double.infinity, b = Double.infinity
    for _ in 0..<repeats {
        a = min(a, try first())
        b = min(b, try second())
    }
    return (a, b)
}

let sizes =
    CommandLine.arguments.count > 1
    ? CommandLine.arguments.dropFirst().compactMap { Int($0) } : [1, 12, 21, 100, 1000, 10000]
let repeats = 5
// With KINEMA_CLI=path/to/release/kinema, the same runs also go through the command line.
let cli = ProcessInfo.processInfo.environment["KINEMA_CLI"]
var cliRows: [String] = []
let h = 1e-4, tolerance = 1e-8
print(
    "| bodies (3-D) | RK4 Kinema | RK4 odeint | ratio | DOP853 Kinema (per accepted step) | fehlberg78 odeint | ratio | DOPRI5 Kinema | dopri5 odeint | ratio |"
)
print("|---|---|---|---|---|---|---|---|---|---|")
for n in sizes {
    let scene = try chain(n)
    // About 2e6 body-steps per fixed-step run.
    let steps = max(20, 2_000_000 / n)
    let duration = Double(steps) * h
    var kinema = Simulation(scene: scene)
    kinema.stepBudget = 100_000_000
    var last: Trajectory?
    var positions = [Double](repeating: 0, count: 3 * n)
    let (rk4, odeintRK4) = try interleaved(
        repeats,
        {
            try seconds {
                last = try kinema.run(method: .rk4(timeStep: h), duration: duration, sampleRate: 1 / duration)
            }
        }, { odeint_chain_rk4(Int32(n), h, steps, &positions) })
    let difference =
        zip(positions, (0..<3 * n).map { last!.position(atSample: last!.count - 1, coordinate: $0) }).map {
            abs($0 - $1)
        }.max() ?? 0
    // Same scene, same method: only rounding (different operation order over ~10⁵ steps) apart.
    guard difference < 1e-6 else { fatalError("Kinema and odeint disagree by \(difference) at N = \(n)") }

    // Long enough for hundreds of accepted steps, so setup is a small part of the run.
    let adaptiveDuration = 1.0
    /// ns per accepted body-step of Kinema's method and odeint's, measured alternately.
    func adaptive(
        _ method: IntegrationMethod,
        _ odeint: (Int32, Double, Double, UnsafeMutablePointer<Int>, UnsafeMutablePointer<Double>) -> Double
    ) throws -> (Double, Double) {
        var accepted = 0, odeintAccepted = 0
        let (time, odeintTime) = try interleaved(
            repeats,
            {
                try seconds {
                    accepted = try kinema.run(
                        method: method, duration: adaptiveDuration, sampleRate: 1 / adaptiveDuration
                    ).steps
                }
            }, { odeint(Int32(n), tolerance, adaptiveDuration, &odeintAccepted, &positions) })
        return (time / Double(accepted * n) * 1e9, odeintTime / Double(odeintAccepted * n) * 1e9)
    }
    let (dop853, fehlberg) = try adaptive(.dop853(tolerance: tolerance), odeint_chain_fehlberg78)
    let (dopri5, odeintDopri5) = try adaptive(.dopri5(tolerance: tolerance), odeint_chain_dopri5)
    if let cli {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kinema-chain-\(n).json")
        try chainJSON(n).write(to: file, atomically: true, encoding: .utf8)
        // 10⁷ body-steps a run, so the process start and reading the scene file, part of every
        // run, are a small part of it.
        let cliSteps = max(20, 10_000_000 / n), cliDuration = Double(cliSteps) * h
        let (rk4, odeintRK4) = try interleaved(
            repeats,
            {
                try cliSeconds(
                    cli,
                    [
                        "--scene", file.path, "--sample-rate", "\(1 / cliDuration)", "--max-steps", "100000000",
                        "--integrator", "rk4", "--dt", "\(h)", "--duration", "\(cliDuration)"
                    ])
            }, { odeint_chain_rk4(Int32(n), h, cliSteps, &positions) })
        // DOP853 over about 5·10⁶ body-steps (about 2 s), so the process start is a small part of it.
        let perSecond = try kinema.run(method: .dop853(tolerance: tolerance), duration: 1, sampleRate: 1).steps
        let span = max(1, (5e6 / Double(perSecond * n)).rounded(.up))
        let steps853 = try kinema.run(method: .dop853(tolerance: tolerance), duration: span, sampleRate: 1 / span).steps
        var odeintAccepted = 0
        let (dop853, fehlberg) = try interleaved(
            repeats,
            {
                try cliSeconds(
                    cli,
                    [
                        "--scene", file.path, "--integrator", "dop853", "--tolerance", "\(tolerance)",
                        "--duration", "\(span)", "--sample-rate", "\(1 / span)"
                    ])
            }, { odeint_chain_fehlberg78(Int32(n), tolerance, span, &odeintAccepted, &positions) })
        let fehlbergPerBodyStep = fehlberg / Double(odeintAccepted * n) * 1e9
        let rk4PerBodyStep = rk4 / Double(cliSteps * n) * 1e9, dop853PerBodyStep = dop853 / Double(steps853 * n) * 1e9
        let odeint = odeintRK4 / Double(cliSteps * n) * 1e9
        cliRows.append(
            "| \(n) | \(String(format: "%.1f", rk4PerBodyStep)) | \(String(format: "%.2f×", rk4PerBodyStep / odeint)) "
                + "| \(String(format: "%.1f", dop853PerBodyStep)) | \(String(format: "%.2f×", dop853PerBodyStep / fehlbergPerBodyStep)) |"
        )
    }
    let perBodyStep = rk4 / Double(steps * n) * 1e9, odeintPerBodyStep = odeintRK4 / Double(steps * n) * 1e9
    func f(_ x: Double) -> String { String(format: x < 100 ? "%.1f" : "%.0f", x) }
    print(
        "| \(n) | \(f(perBodyStep)) | \(f(odeintPerBodyStep)) | \(String(format: "%.2f×", perBodyStep / odeintPerBodyStep)) "
            + "| \(f(dop853)) | \(f(fehlberg)) | \(String(format: "%.2f×", dop853 / fehlberg)) "
            + "| \(f(dopri5)) | \(f(odeintDopri5)) | \(String(format: "%.2f×", dopri5 / odeintDopri5)) |")
}
if !cliRows.isEmpty {
    print(
        "\n| bodies (3-D), through `kinema simulate --scene` (process start and JSON included) | RK4 ns/body-step | ÷ odeint RK4 | DOP853 ns/body-step | ÷ odeint fehlberg78 |"
    )
    print("|---|---|---|---|---|")
    cliRows.forEach { print($0) }
}

// 1,000 spheres in a closed box (the scene of SphereBoxTests), 5 s of simulated time on one core.
func box(restitution: Double) throws -> PhysicsScene {
    var seed: UInt64 = 12345
    func random() -> Double {
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return Double(seed >> 11) / Double(1 << 53) * 2 - 1
    }
    var bodies: [PhysicsBody] = []
    for i in 0..<10 {
        for j in 0..<10 {
            for k in 0..<10 {
                let p = SIMD3([i, j, k].map { -0.9 + 0.18 * (Double($0) + 0.5) })
                bodies.append(
                    try PhysicsBody(
                        name: "s\(bodies.count)", position: p, velocity: SIMD3(random(), random(), random()),
                        radius: 0.02))
            }
        }
    }
    var planes: [Plane] = []
    for axis in 0..<3 {
        for sign in [1.0, -1.0] {
            var normal = SIMD3<Double>.zero
            normal[axis] = sign
            planes.append(try Plane(name: "wall\(planes.count)", normal: normal, offset: -1, restitution: restitution))
        }
    }
    return try PhysicsScene(
        dimensions: 3, bodies: bodies, planes: planes, contacts: PhysicsScene.Contacts(restitution: restitution),
        restVelocity: 0)
}

if CommandLine.arguments.count == 1 {
    print(
        "\n| 1,000 spheres in a box, 5 s, RK4 at 1/500 s | wall time (best of 3) | × real time | impacts | steps | sphere pairs tested per step (of 499,500) |"
    )
    print("|---|---|---|---|---|---|")
    for restitution in [1.0, 0.5] {
        let scene = try box(restitution: restitution)
        var run: Trajectory?
        let time = try best(3) {
            try seconds {
                run = try Simulation(scene: scene).run(method: .rk4(timeStep: 1.0 / 500), duration: 5, sampleRate: 10)
            }
        }
        print(
            "| restitution \(restitution) | \(String(format: "%.2f s", time)) | \(String(format: "%.1f×", 5 / time)) | \(run!.events.count) "
                + "| \(run!.steps) | \(run!.pairTests / run!.steps) |")
    }
}

if CommandLine.arguments.dropFirst().first == "profile-adams" {
    let scene = try PhysicsScene.spring(
        try DampedSpring(stiffness: 1000, damping: 2 * 0.1 * 1000.0.squareRoot()), from: 0, to: 1)
    let t = try seconds {
        for _ in 0..<2000 {
            _ = try Simulation(scene: scene).run(method: .adams(timeStep: 1.0 / 240, order: 9), duration: 2)
        }
    }
    print("Run.Adams9: \(t / 2000 * 1e6) µs")
}
