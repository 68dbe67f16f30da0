import ArgumentParser
import Dispatch
import Foundation
@_spi(Engine) import Kinema
import KinemaReference

/// `kinema work-precision`: error against cost for Kinema's and GSL's integrators, timed in one run.
struct WorkPrecisionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "work-precision",
        abstract:
            "Max error and time per simulated second for every integrator at several settings, Kinema's and GSL's, in one run.",
        discussion: """
            Columns: integrator,setting,max_error,ns_per_simulated_second,steps,evaluations. The error is the max over \
            the samples against the analytic solution (springs, drops) or, for --scene, GSL rk8pd at tolerance 1e-13. \
            Each run is repeated for at least 30 ms and the fastest repetition counts. A summary on stderr compares the \
            cheapest Kinema and GSL integrator that reach 1e-6, 1e-9 and 1e-12. Build with -c release to time.

            Example:
              kinema work-precision --spring --stiffness 1000 --damping-ratio 0.1 --duration 2
            """
    )

    @OptionGroup var sceneOptions: SceneOptions
    @Option(parsing: .unconditional, help: "Simulated seconds (default: as for simulate).")
    var duration: Double?
    @Option(
        name: .customLong("sample-rate"), parsing: .unconditional,
        help: "Samples per second at which the error is measured (default 60).")
    var sampleRate: Double = 60
    @OptionGroup var output: OutputOptions

    struct Candidate {
        let integrator: String
        let setting: String
        let isGSL: Bool
        let run: (PhysicsScene, Double, Double) throws -> Trajectory
    }

    static func candidates(sampleRate: Double) -> [Candidate] {
        var list: [Candidate] = []
        func kinema(_ name: String, _ setting: String, _ method: IntegrationMethod) {
            list.append(
                Candidate(integrator: name, setting: setting, isGSL: false) { scene, duration, rate in
                    try Simulation(scene: scene).run(method: method, duration: duration, sampleRate: rate)
                })
        }
        func gsl(_ method: GSLMethod, _ setting: String, _ stepping: GSLStepping) {
            list.append(
                Candidate(integrator: "gsl-\(method.rawValue)", setting: setting, isGSL: true) {
                    scene, duration, rate in
                    try GSLReference.simulate(
                        scene, method: method, stepping: stepping, duration: duration, sampleRate: rate)
                })
        }
        for h in [1e-3, 1e-4, 1e-5] {
            kinema("euler", "dt=\(h)", .euler(timeStep: h))
            kinema("semi-implicit-euler", "dt=\(h)", .semiImplicitEuler(timeStep: h))
        }
        for h in [1e-3, 3e-4, 1e-4, 3e-5] { kinema("verlet", "dt=\(h)", .verlet(timeStep: h)) }
        for h in [4e-3, 2e-3, 1e-3, 5e-4, 2.5e-4, 1.25e-4] {
            kinema("rk4", "dt=\(h)", .rk4(timeStep: h))
            gsl(.rk4, "dt=\(h)", .fixed(timeStep: h))
        }
        for h in [1e-3, 3e-4, 1e-4] { gsl(.rk2, "dt=\(h)", .fixed(timeStep: h)) }
        // Adams steps a whole number of times per sample interval, so every sample is a grid point.
        for order in [5, 7, 8, 9, 10, 11, 12] {
            for perSample in [2, 3, 4, 5, 6, 8, 12] {
                let stepsPerSecond = sampleRate * Double(perSample)
                let label =
                    stepsPerSecond == stepsPerSecond.rounded() && stepsPerSecond < 1e15
                    ? "1/\(Int(stepsPerSecond))" : "\(1 / stepsPerSecond)"
                kinema("adams", "order=\(order) dt=\(label)", .adams(timeStep: 1 / stepsPerSecond, order: order))
            }
        }
        // Half decades for the explicit adaptive methods, so "the cheapest run that reaches 1e-9"
        // is not decided by where a decade ladder happens to fall; decades for the slow ones.
        let tolerances = [
            1e-4, 3e-5, 1e-5, 3e-6, 1e-6, 3e-7, 1e-7, 3e-8, 1e-8, 3e-9, 1e-9,
            3e-10, 1e-10, 3e-11, 1e-11, 3e-12, 1e-12, 3e-13, 1e-13
        ]
        for tolerance in tolerances {
            kinema("dopri5", "tol=\(tolerance)", .dopri5(tolerance: tolerance))
            kinema("dop853", "tol=\(tolerance)", .dop853(tolerance: tolerance))
            for method in [GSLMethod.rkf45, .rkck, .rk8pd] {
                gsl(method, "tol=\(tolerance)", .adaptive(tolerance: tolerance))
            }
        }
        for tolerance in [1e-4, 1e-6, 1e-8, 1e-10, 1e-12] {
            for method in [GSLMethod.bsimp, .msadams, .msbdf] {
                gsl(method, "tol=\(tolerance)", .adaptive(tolerance: tolerance))
            }
        }
        kinema("exact", "", .exact)
        return list
    }

    func run() throws {
        try DistinctFiles.check(
            outputs: [("-o", output.output)], inputs: [("--scene", sceneOptions.values.flags[text: .scene])])
        let (scene, suggested, _) = try sceneOptions.values.makeScene()
        try check(duration, "--duration", .positive)
        try check(sampleRate, "--sample-rate", .positive)
        guard let duration = duration ?? suggested else {
            throw CLIError("'--duration' is needed: this scene has no settling time of its own.")
        }
        let reference = try Self.reference(for: sceneOptions, scene: scene, duration: duration, rate: sampleRate)
        var text = "integrator,setting,max_error,ns_per_simulated_second,steps,evaluations\n"
        var results: [(candidate: Candidate, error: Double, cost: Double)] = []
        for candidate in Self.candidates(sampleRate: sampleRate) {
            let trajectory: Trajectory
            var best = UInt64.max
            do {
                var spent: UInt64 = 0, repetitions = 0
                var last: Trajectory?
                while repetitions < 1 || (spent < 30_000_000 && repetitions < 50) {
                    let start = DispatchTime.now().uptimeNanoseconds
                    last = try candidate.run(scene, duration, sampleRate)
                    let elapsed = DispatchTime.now().uptimeNanoseconds - start
                    best = min(best, elapsed)
                    spent += elapsed
                    repetitions += 1
                }
                trajectory = last!
            } catch {
                StandardStreams.writeError("work-precision: \(candidate.integrator) \(candidate.setting): \(error)\n")
                continue
            }
            var worst = 0.0
            for i in 0..<trajectory.count {
                for j in 0..<trajectory.coordinateCount {
                    worst = max(worst, abs(trajectory.position(atSample: i, coordinate: j) - reference(i, j)))
                }
            }
            let cost = Double(best) / duration
            results.append((candidate, worst, cost))
            text +=
                "\(candidate.integrator),\(candidate.setting),\(worst),\(cost),\(trajectory.steps),\(trajectory.evaluations)\n"
        }
        try output.emit(text)
        var summary = ""
        for level in [1e-6, 1e-9, 1e-12] {
            let reaching = results.filter { $0.error <= level && $0.candidate.integrator != "exact" }
            let kinema = reaching.filter { !$0.candidate.isGSL }.min { $0.cost < $1.cost }
            let gsl = reaching.filter { $0.candidate.isGSL }.min { $0.cost < $1.cost }
            if let kinema, let gsl, !(kinema.cost.isFinite && gsl.cost.isFinite) {
                summary +=
                    "work-precision: at \(level): no time per simulated second to compare: "
                    + "a run of \(duration) s is shorter than the clock can divide by.\n"
            } else if let kinema, let gsl {
                summary +=
                    "work-precision: at \(level): Kinema \(kinema.candidate.integrator) \(kinema.candidate.setting) "
                    + "\(kinema.cost.wholeNumberText()) ns/s vs GSL \(gsl.candidate.integrator) \(gsl.candidate.setting) \(gsl.cost.wholeNumberText()) ns/s: "
                    + "\((gsl.cost / kinema.cost * 100).rounded() / 100)× faster\n"
            }
        }
        StandardStreams.writeError(summary)
    }

    /// The reference position of sample i, coordinate j.
    static func reference(for options: SceneOptions, scene: PhysicsScene, duration: Double, rate: Double) throws -> (
        Int, Int
    ) -> Double {
        // Springs and drops have closed forms: the exact integrator evaluates them (the damped
        // oscillator; parabolas between impacts found by root finding).
        if options.spring || options.drop {
            let exact = try Simulation(scene: scene).run(method: .exact, duration: duration, sampleRate: rate)
            return { i, j in exact.position(atSample: i, coordinate: j) }
        }
        let gsl = try GSLReference.simulate(
            scene, method: .rk8pd, stepping: .adaptive(tolerance: 1e-13), duration: duration, sampleRate: rate)
        return { i, j in gsl.position(atSample: i, coordinate: j) }
    }
}
