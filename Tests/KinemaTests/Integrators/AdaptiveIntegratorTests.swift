import Foundation
import Testing

@_spi(Engine) @testable import Kinema

struct AdaptiveIntegratorTests {
    /// Max |x − x_exact| over samples at 1 kHz (dense output included) on 2 s of k = 1000, ζ = 0.1.
    static func maxError(_ method: IntegrationMethod) throws -> (Double, Trajectory) {
        let spring = try DampedSpring(stiffness: 1000, dampingRatio: 0.1)
        let exact = try spring.motion(from: 0, to: 1)
        let trajectory = try Simulation(scene: PhysicsScene.spring(spring)).run(
            method: method, duration: 2, sampleRate: 1000)
        var worst = 0.0
        for i in 0..<trajectory.count {
            worst = max(worst, abs(trajectory.position(atSample: i) - exact.position(at: trajectory.times[i])))
        }
        return (worst, trajectory)
    }

    @Test(arguments: [(IntegrationMethod.dopri5(tolerance: 1e-10), 1e-10), (.dop853(tolerance: 1e-12), 1e-12)])
    func staysWithinTenTimesItsTolerance(method: IntegrationMethod, tolerance: Double) throws {
        let (error, trajectory) = try Self.maxError(method)
        #expect(error <= 10 * tolerance, "\(method.name): max error \(error) in \(trajectory.steps) steps")
    }

    /// scipy 1.17's `solve_ivp(method="RK45", rtol=1e-10, atol=1e-10)` takes 481 steps on
    /// x'' = −100x − 2x', x(0) = 1, v(0) = 0, t ∈ [0, 2] (measured with scipy, not with Kinema).
    @Test func dormandPrinceStepCountMatchesScipy() throws {
        let scipySteps = 481.0
        let spring = try DampedSpring(stiffness: 100, dampingRatio: 0.1)
        let system = SceneSystem<Double>(scene: try PhysicsScene.spring(spring, from: 1, to: 0))
        var integrator = AdaptiveIntegrator(
            system: system, method: DormandPrince54.self, state: system.initialState,
            absoluteTolerance: 1e-10, relativeTolerance: 1e-10)
        while integrator.time < 2 { try integrator.advance(toward: 2) }
        #expect(abs(Double(integrator.steps) - scipySteps) <= 0.05 * scipySteps, "\(integrator.steps) steps")
    }

    /// scipy's DOP853 at rtol = atol = 1e-12 takes 105 steps on the same problem.
    @Test func dop853StepCountIsNearScipys() throws {
        let scipySteps = 105.0
        let spring = try DampedSpring(stiffness: 100, dampingRatio: 0.1)
        let system = SceneSystem<Double>(scene: try PhysicsScene.spring(spring, from: 1, to: 0))
        var integrator = AdaptiveIntegrator(
            system: system, method: DOP853.self, state: system.initialState, absoluteTolerance: 1e-12,
            relativeTolerance: 1e-12)
        while integrator.time < 2 { try integrator.advance(toward: 2) }
        #expect(abs(Double(integrator.steps) - scipySteps) <= 0.1 * scipySteps, "\(integrator.steps) steps")
    }

    /// The dense output between steps is as accurate as the steps: compared at 1 kHz above; here
    /// at points strictly inside single steps, computed on demand (the first two) and after
    /// `prepareInterpolation` (the last two: a cache left from the step before would be far off).
    @Test(arguments: [IntegrationMethod.dopri5(tolerance: 1e-9), .dop853(tolerance: 1e-11)])
    func denseOutputIsAccurateInsideSteps(_ method: IntegrationMethod) throws {
        let spring = try DampedSpring(stiffness: 400, dampingRatio: 0.2)
        let exact = try spring.motion(from: 0, to: 1, initialVelocity: 3)
        let system = SceneSystem<Double>(scene: try PhysicsScene.spring(spring, initialVelocity: 3))
        func check<I: Integrator>(_ integrator: inout I, tolerance: Double) throws
        where I.System == SceneSystem<Double> {
            while integrator.time < 1 {
                try integrator.advance(toward: 1)
                for theta in [0.1, 0.37, 0.5, 0.81] {
                    if theta == 0.5 { integrator.prepareInterpolation() }
                    let t = integrator.previousTime + theta * (integrator.time - integrator.previousTime)
                    let state = integrator.interpolate(at: t)
                    #expect(abs(state.position - exact.position(at: t)) <= 10 * tolerance)
                    #expect(abs(state.velocity - exact.velocity(at: t)) <= 10 * tolerance * 20)
                }
            }
        }
        if case .dopri5(let tol) = method {
            var i = AdaptiveIntegrator(
                system: system, method: DormandPrince54.self, state: system.initialState, absoluteTolerance: tol,
                relativeTolerance: tol)
            try check(&i, tolerance: tol)
        } else if case .dop853(let tol) = method {
            var i = AdaptiveIntegrator(
                system: system, method: DOP853.self, state: system.initialState, absoluteTolerance: tol,
                relativeTolerance: tol)
            try check(&i, tolerance: tol)
        }
    }
}
