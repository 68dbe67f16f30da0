import ArgumentParser
import Foundation
import Kinema
import KinemaReference

/// `kinema verify`: the accuracy table, rerunnable by anyone.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check every integrator against the analytic solutions and GSL's rk8pd; exit 1 on any failure.",
        discussion: """
            Scenes: springs (k = 400) underdamped, critical and overdamped with initial velocity, the jelly spring's \
            damped cosine, and a drop (h = 1, g = 9.81, e = 0.8). Columns: \
            scene,integrator,setting,max_error_analytic,max_error_gsl_rk8pd,tolerance,status. \
            A row passes when its error against the analytic solution is within its tolerance: \
            100 × the setting for adaptive one-step methods, 1000 × for GSL's multistep ones, \
            1e-12 for exact, and for fixed steps the method's bound at that step on these scenes.

            Examples:
              kinema verify
              kinema verify --tolerance-scale 1e-6   # demand a million times more: fails, exit 1
            """
    )

    @Option(parsing: .unconditional, help: "Multiply every row's tolerance by this factor (default 1).")
    var toleranceScale: Double = 1
    @OptionGroup var output: OutputOptions

    /// An integrator with its setting and the error it must stay within.
    struct Row: Sendable {
        let integrator: String
        let setting: String
        let tolerance: Double
        let run: @Sendable (PhysicsScene, Double) throws -> Trajectory
    }

    static let sampleRate = 200.0

    static func kinema(_ name: String, _ method: IntegrationMethod, _ setting: String, _ tolerance: Double) -> Row {
        Row(integrator: name, setting: setting, tolerance: tolerance) { scene, duration in
            try Simulation(scene: scene).run(method: method, duration: duration, sampleRate: sampleRate)
        }
    }

    static func gsl(
        _ method: GSLMethod, _ stepping: GSLStepping, _ setting: String, _ tolerance: Double
    ) -> Row {
        Row(integrator: "gsl-\(method.rawValue)", setting: setting, tolerance: tolerance) { scene, duration in
            try GSLReference.simulate(
                scene, method: method, stepping: stepping, duration: duration, sampleRate: sampleRate)
        }
    }

    /// Fixed-step bounds: the global error of order p at step h on scenes with ω = 20 rad/s over
    /// 1.5 s (the drop adds an O(h) event-location error for the first-order methods).
    static let rows: [Row] = [
        kinema("euler", .euler(timeStep: 1e-5), "dt=1e-5", 1e-3),
        kinema("semi-implicit-euler", .semiImplicitEuler(timeStep: 1e-5), "dt=1e-5", 1e-3),
        kinema("verlet", .verlet(timeStep: 1e-4), "dt=1e-4", 1e-4),
        kinema("rk4", .rk4(timeStep: 1e-3), "dt=1e-3", 1e-6),
        kinema("adams", .adams(timeStep: 1e-3, order: 8), "order=8 dt=1e-3", 1e-10),
        kinema("dopri5", .dopri5(tolerance: 1e-10), "tol=1e-10", 1e-8),
        kinema("dop853", .dop853(tolerance: 1e-12), "tol=1e-12", 1e-10),
        kinema("exact", .exact, "", 1e-12),
        gsl(.rk2, .fixed(timeStep: 1e-4), "dt=1e-4", 1e-4),
        gsl(.rk4, .fixed(timeStep: 1e-3), "dt=1e-3", 1e-6),
        gsl(.rkf45, .adaptive(tolerance: 1e-10), "tol=1e-10", 1e-8),
        gsl(.rkck, .adaptive(tolerance: 1e-10), "tol=1e-10", 1e-8),
        gsl(.rk8pd, .adaptive(tolerance: 1e-12), "tol=1e-12", 1e-10),
        gsl(.rk4imp, .fixed(timeStep: 1e-3), "dt=1e-3", 1e-6),
        gsl(.bsimp, .adaptive(tolerance: 1e-10), "tol=1e-10", 1e-8),
        gsl(.msadams, .adaptive(tolerance: 1e-10), "tol=1e-10", 1e-7),
        gsl(.msbdf, .adaptive(tolerance: 1e-10), "tol=1e-10", 1e-7)
    ]

    func run() throws {
        try check(toleranceScale, "--tolerance-scale", .positive)
        var text = "scene,integrator,setting,max_error_analytic,max_error_gsl_rk8pd,tolerance,status\n"
        var failures = 0, total = 0
        for standard in try StandardScene.all() {
            let reference = try GSLReference.simulate(
                standard.scene, method: .rk8pd, stepping: .adaptive(tolerance: 1e-12),
                duration: standard.duration, sampleRate: Self.sampleRate)
            for row in Self.rows {
                let tolerance = row.tolerance * toleranceScale
                var analytic = Double.nan, versusGSL = Double.nan
                do {
                    let trajectory = try row.run(standard.scene, standard.duration)
                    analytic = standard.maxError(trajectory)
                    versusGSL = 0
                    for i in 0..<min(trajectory.count, reference.count) {
                        versusGSL = max(
                            versusGSL, abs(trajectory.position(atSample: i) - reference.position(atSample: i)))
                    }
                } catch {
                    StandardStreams.writeError("verify: \(standard.name) \(row.integrator): \(error)\n")
                }
                let passed = analytic <= tolerance
                if !passed { failures += 1 }
                total += 1
                text +=
                    "\(standard.name),\(row.integrator),\(row.setting),\(analytic),\(versusGSL),\(tolerance),\(passed ? "pass" : "FAIL")\n"
            }
        }
        try output.emit(text)
        StandardStreams.writeError("verify: \(total - failures) of \(total) rows within tolerance\n")
        if failures > 0 {
            throw CLIError(
                "\(failures) of \(total) rows exceed their tolerance (each row's own, times "
                    + "--tolerance-scale \(toleranceScale)); their status is FAIL in the table.")
        }
    }
}
