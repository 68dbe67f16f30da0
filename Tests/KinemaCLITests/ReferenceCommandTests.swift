import Foundation
import Testing

struct VerifyCommandTests {
    @Test func passesAndPrintsItsTable() throws {
        let result = try CLI.run(["verify"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "scene,integrator,setting,max_error_analytic,max_error_gsl_rk8pd,tolerance,status")
        #expect(lines.count == 1 + 5 * 17)  // the header, then 5 scenes × 17 integrator settings
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            #expect(fields.count == 7 && fields[6] == "pass", "\(line)")
        }
        for scene in ["spring-underdamped", "spring-critical", "spring-overdamped", "damped-cosine-5-30", "drop"] {
            #expect(lines.contains { $0.hasPrefix("\(scene),dop853,") })
            #expect(lines.contains { $0.hasPrefix("\(scene),adams,") })
            #expect(lines.contains { $0.hasPrefix("\(scene),gsl-msbdf,") })
        }
    }

    @Test func anImpossibleToleranceFails() throws {
        let result = try CLI.run(["verify", "--tolerance-scale", "1e-9"])
        #expect(result.status == 1)
        #expect(result.stdout.contains(",FAIL\n"))
        #expect(result.stderr.contains("rows within tolerance"))
    }
}

struct WorkPrecisionCommandTests {
    @Test func printsEveryIntegratorAtSeveralSettings() throws {
        let result = try CLI.run([
            "work-precision", "--spring", "--stiffness", "1000", "--damping-ratio", "0.1", "--duration", "0.2"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "integrator,setting,max_error,ns_per_simulated_second,steps,evaluations")
        var settings: [String: Int] = [:]
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            #expect(fields.count == 6)
            settings[String(fields[0]), default: 0] += 1
            #expect(Double(fields[2])! >= 0 && Double(fields[3])! > 0)
        }
        for name in [
            "euler", "semi-implicit-euler", "verlet", "rk4", "adams", "dopri5", "dop853", "gsl-rk2", "gsl-rk4",
            "gsl-rkf45",
            "gsl-rkck", "gsl-rk8pd", "gsl-bsimp", "gsl-msadams", "gsl-msbdf"
        ] {
            #expect((settings[name] ?? 0) >= 3, "\(name): \(settings[name] ?? 0) settings")
        }
        #expect(settings["exact"] == 1)
    }
}
