import Foundation
import Testing

@_spi(Engine) @testable import Kinema

/// The underdamped spring every integrator is measured on: k = 100, c = 2 (ζ = 0.1), 0 → 1.
private let spring = try! DampedSpring(stiffness: 100, damping: 2)
private let exact = try! spring.motion(from: 0, to: 1)

/// Max error in position against the analytic solution over 2 s, sampled at 50 Hz (every sample
/// time is a multiple of each step size used, so fixed-step runs land on it without interpolation).
private func maxError(_ method: IntegrationMethod) throws -> (error: Double, trajectory: Trajectory) {
    let trajectory = try Simulation(scene: PhysicsScene.spring(spring)).run(method: method, duration: 2, sampleRate: 50)
    var worst = 0.0
    for i in 0..<trajectory.count {
        worst = max(worst, abs(trajectory.position(atSample: i) - exact.position(at: trajectory.times[i])))
    }
    return (worst, trajectory)
}

struct IntegratorConvergenceTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String, order: Double, h: Double
        let make: @Sendable (Double) -> IntegrationMethod
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "euler", order: 1, h: 1.0 / 20_000, make: { .euler(timeStep: $0) }),
        Case(name: "semi-implicit-euler", order: 1, h: 1.0 / 20_000, make: { .semiImplicitEuler(timeStep: $0) }),
        Case(name: "verlet", order: 2, h: 1.0 / 1_000, make: { .verlet(timeStep: $0) }),
        Case(name: "rk4", order: 4, h: 1.0 / 200, make: { .rk4(timeStep: $0) })
    ]

    /// Observed order log2(e(h)/e(h/2)) at h, h/2, h/4, within 10 % of the method's order.
    @Test(arguments: cases)
    func observedOrderMatches(_ c: Case) throws {
        let e1 = try maxError(c.make(c.h)).error
        let e2 = try maxError(c.make(c.h / 2)).error
        let e4 = try maxError(c.make(c.h / 4)).error
        let orders = [log2(e1 / e2), log2(e2 / e4)]
        for order in orders {
            #expect(abs(order - c.order) <= 0.1 * c.order, "errors \(e1), \(e2), \(e4): orders \(orders)")
        }
    }

    /// Dormand–Prince's 5th order, measured on its own step (a fixed step, no control): one step of
    /// size h from the exact state, local error ∝ h⁶, so global order 5.
    @Test func dormandPrinceIsFifthOrder() throws {
        let system = SceneSystem<Double>(scene: try PhysicsScene.spring(spring))
        func globalError(_ h: Double) throws -> Double {
            var integrator = AdaptiveIntegrator(
                system: system, method: DormandPrince54.self, state: system.initialState, absoluteTolerance: 1,
                relativeTolerance: 1)
            integrator.control.stepSize = h
            var worst = 0.0
            for n in 1...Int((2 / h).rounded()) {
                // forcing the step: a limit at the next grid point and a tolerance that accepts it
                try integrator.advance(toward: Double(n) * h)
                worst = max(worst, abs(integrator.state.position - exact.position(at: integrator.time)))
            }
            return worst
        }
        let h = 1.0 / 100
        let e1 = try globalError(h), e2 = try globalError(h / 2), e4 = try globalError(h / 4)
        for order in [log2(e1 / e2), log2(e2 / e4)] { #expect(abs(order - 5) <= 0.5, "errors \(e1), \(e2), \(e4)") }
    }
}
