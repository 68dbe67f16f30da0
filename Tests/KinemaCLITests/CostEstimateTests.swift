import Foundation
@_spi(Engine) import Kinema
import Testing

@testable import KinemaCLI

/// Runs that would take too long are refused before they start, with the estimate and a cheaper
/// choice; `--max-steps` moves the budget. (These hung for 14–300 s before.)
@Suite struct CostEstimateTests {
    static func timed(_ arguments: [String]) throws -> (CLIResult, Double) {
        let start = Date()
        let result = try CLI.run(arguments)
        return (result, Date().timeIntervalSince(start))
    }

    @Test func stiffSpringWithAnAdaptiveMethodIsRefusedNamingExact() throws {
        let (result, seconds) = try Self.timed([
            "simulate", "--spring", "--stiffness", "1e15", "--damping", "3", "--duration", "1"
        ])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(
            result.stderr.contains("needs about") && result.stderr.contains("use exact")
                && result.stderr.contains("--max-steps"),
            "\(result.stderr)")
        #expect(seconds < 10)
    }

    @Test func fixedStepFarAboveTheStabilityLimitIsRefusedBeforeTheFirstStep() throws {
        let (result, seconds) = try Self.timed([
            "simulate", "--spring", "--stiffness", "1e15", "--damping", "3",
            "--integrator", "rk4", "--duration", "1"
        ])
        #expect(result.status == 1 && result.stderr.contains("refused before the first step"), "\(result.stderr)")
        #expect(result.stderr.contains("largest stable step for rk4"))
        #expect(seconds < 10)
    }

    @Test func workPrecisionOnAStiffSpringFinishes() throws {
        let (result, seconds) = try Self.timed(["work-precision", "--spring", "--stiffness", "1e15", "--damping", "3"])
        #expect(result.status == 0, "\(result.stderr.suffix(300))")
        #expect(result.stdout.contains("\nexact,"))
        #expect(seconds < 30)
    }

    @Test func exactIsCheapOnAStiffSpringWithoutColliders() throws {
        let scene = try PhysicsScene.spring(DampedSpring(stiffness: 1e15, damping: 3))
        let trajectory = try Simulation(scene: scene).run(method: .exact, duration: 1, sampleRate: 60)
        let motion = try DampedSpring(stiffness: 1e15, damping: 3).motion()
        #expect(trajectory.steps <= 61)
        for i in 0..<trajectory.count {
            #expect(abs(trajectory.position(atSample: i) - motion.position(at: trajectory.times[i])) <= 1e-9)
        }
    }

    /// With a plane in the scene, exact looks for impacts a quarter period of the stiffest spring
    /// at a time: ω = 10⁷ rad/s for 2 s is about 1.3·10⁷ searches, refused before the first (it
    /// ran for minutes before).
    @Test func exactWithAPlaneOnAStiffSpringIsRefusedBeforeTheFirstStep() throws {
        let scene = try PhysicsScene(
            dimensions: 1, bodies: [PhysicsBody(name: "b", mass: 1e-6, position: SIMD3(1, 0, 0))],
            springs: [SpringForce(.anchor(body: 0, at: SIMD3(1, 0, 0)), stiffness: 1e8, damping: 5)],
            planes: [Plane(name: "floor", normal: SIMD3(1, 0, 0), offset: 0, restitution: 0.5)])
        let start = Date()
        do {
            _ = try Simulation(scene: scene).run(method: .exact, duration: 2, sampleRate: 60)
            Issue.record("the run was not refused")
        } catch SimulationError.overBudget(let estimate, _, let advice) {
            #expect(estimate > 1e7 && advice.contains("quarter period"), "\(estimate): \(advice)")
        }
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test func theBudgetIsTheStepCountThatIsRefused() throws {
        let scene = try PhysicsScene.spring(DampedSpring(stiffness: 100, damping: 3))
        var simulation = Simulation(scene: scene)
        simulation.stepBudget = 1_000
        // 2,000 steps.
        #expect(throws: SimulationError.self) { try simulation.run(method: .rk4(timeStep: 1e-3), duration: 2) }
        simulation.stepBudget = 2_100  // 2,000 steps, and a short one to land on each 60 Hz sample
        let trajectory = try simulation.run(method: .rk4(timeStep: 1e-3), duration: 2)
        #expect(trajectory.steps >= 2_000 && trajectory.steps <= 2_100)
        // The estimate of an adaptive pair is a lower bound: the steps it takes are at least it.
        let estimate = IntegrationMethod.dopri5(tolerance: 1e-9).estimatedSteps(
            duration: 2, omega: 10, dampingRatio: 0.15)
        let adaptive = try Simulation(scene: scene).run(method: .dopri5(tolerance: 1e-9), duration: 2)
        #expect(
            Double(adaptive.steps) >= estimate && Double(adaptive.steps) <= 3 * estimate,
            "\(adaptive.steps) vs \(estimate)")
    }

    /// The library's messages speak its own words (`stepBudget`, an implicit method); the command
    /// line adds the flag that moves the budget and GSL's implicit methods.
    @Test func flagsAndGSLMethodsAreNamedOnlyOnTheCommandLine() {
        let stiff =
            "use a looser tolerance"
            + Simulation.stiffnessAdvice(omega: 1e6, dampingRatio: 0.01, duration: 10, budget: 1_000)
        let errors: [SimulationError] = [
            .tooManyEvents(time: 1, limit: 10), .tooManySteps(time: 1, limit: 10),
            .overBudget(estimatedSteps: 1e9, budget: 1_000, advice: stiff)
        ]
        for error in errors {
            #expect(!error.description.contains("--") && !error.description.contains("gsl-"), "\(error)")
            let line = CLIError(error).description
            #expect(line.hasPrefix(error.description) && line.contains("'--"), "\(line)")
        }
        #expect(stiff.contains("implicit method") && CLIError(errors[2]).description.contains("gsl-msbdf"))
    }

    @Test func maxStepsIsValidated() throws {
        let result = try CLI.run(["simulate", "--spring", "--stiffness", "100", "--damping", "3", "--max-steps", "0"])
        #expect(result.status == 1 && result.stderr.contains("--max-steps"))
    }
}
