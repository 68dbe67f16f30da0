import Foundation
import KinemaTestSupport
import Testing

@_spi(Engine) @testable import Kinema

/// Adams–Bashforth–Moulton: its weights, its order, its interpolant and its stability limit, each
/// against something it does not compute itself (exact integrals, the analytic spring, |1 + z + z²|).
struct AdamsTests {
    static let orders = Array(IntegrationMethod.adamsOrders)

    /// Order k integrates polynomials of degree < k exactly: Σ_j b_j·node_j^m = ∫₀¹ s^m ds = 1/(m + 1),
    /// with the Bashforth nodes 0, −1, …, the Moulton nodes 1, 0, −1, … (the position's weights
    /// ∫₀¹ (1 − s) s^m ds = 1/((m + 1)(m + 2))); the interpolant's g_j
    /// integrate Newton's basis binom(s + j − 2, j) from 0 to θ (checked by Simpson's rule, exact
    /// for these at 2,000 panels within 1e-12).
    @Test(arguments: orders)
    func weightsIntegratePolynomialsExactly(order k: Int) {
        // Σ_j w_j·node_j^m for a table's row k − 1 (Bashforth nodes −j, Moulton 1 − j) against
        // `exact`; the terms reach 30·11¹¹ (order 12, m = 11): the bound is their sum's rounding.
        func expectIntegrates(_ table: [[Double]], firstNode: Double, _ m: Int, to exact: Double, _ name: String) {
            var sum = 0.0, magnitude = 1.0
            for j in 0..<k {
                let term = table[k - 1][j] * pow(firstNode - Double(j), Double(m))
                sum += term
                magnitude += abs(term)
            }
            #expect(abs(sum - exact) <= 1e-15 * magnitude, "\(name) \(k), s^\(m)")
        }
        for m in 0..<k {
            expectIntegrates(AdamsCoefficients.bashforth, firstNode: 0, m, to: 1 / Double(m + 1), "Bashforth")
            expectIntegrates(AdamsCoefficients.moulton, firstNode: 1, m, to: 1 / Double(m + 1), "Moulton")
            // The position's weights integrate twice: Σ_j β_j·node_j^m = ∫₀¹ (1 − s) s^m ds.
            expectIntegrates(
                AdamsCoefficients.bashforthPosition, firstNode: 0, m, to: 1 / Double((m + 1) * (m + 2)),
                "Bashforth position")
            expectIntegrates(
                AdamsCoefficients.moultonPosition, firstNode: 1, m, to: 1 / Double((m + 1) * (m + 2)),
                "Moulton position")
        }
        let j = k - 1, theta = 0.7
        func basis(_ s: Double) -> Double { (0..<j).reduce(1.0) { $0 * (s - 1 + Double($1)) / Double($1 + 1) } }
        let panels = 2_000, width = theta / Double(panels)
        var simpson = basis(0) + basis(theta)
        for i in 1..<panels { simpson += (i % 2 == 1 ? 4 : 2) * basis(Double(i) * width) }
        simpson *= width / 3
        let g = AdamsCoefficients.interpolant[j].reversed().reduce(0.0) { ($0 + $1) * theta }
        #expect(abs(g - simpson) <= 1e-12, "g_\(j)(0.7) = \(g), Simpson \(simpson)")
        // The Lagrange form the integrators evaluate, weights w_i of f at the nodes 1, 0, −1, …:
        // Σ_i w_i(θ)·(1 − i)^m = ∫₀^θ s^m ds, and the same at θ = 1 for the end weights. The bound
        // is the rounding of sums of terms up to 30·11¹¹.
        for theta in [0.3, 0.7, 1.0] {
            var (weights, end) = AdamsCoefficients.interpolationWeights(order: k, at: theta)
            for m in 0..<k {
                var sum = 0.0, endSum = 0.0, magnitude = 1.0
                for i in 0..<k {
                    let node = pow(1 - Double(i), Double(m))
                    sum += weights[i] * node
                    endSum += end[i] * node
                    magnitude += abs(weights[i] * node) + abs(end[i] * node)
                }
                #expect(
                    abs(sum - pow(theta, Double(m + 1)) / Double(m + 1)) <= 1e-15 * magnitude,
                    "w(\(theta)) at order \(k), s^\(m)")
                #expect(abs(endSum - 1 / Double(m + 1)) <= 1e-15 * magnitude, "w(1) at order \(k), s^\(m)")
            }
        }
    }

    /// On the convergence tests' spring (k = 100, ζ = 0.1, 2 s at 50 Hz): observed order within
    /// 10 % of k, from h to h/2 to h/4.
    static let orderCases: [(order: Int, h: Double)] = [(2, 1.0 / 400), (4, 1.0 / 200), (6, 1.0 / 100), (8, 1.0 / 100)]

    @Test(arguments: orderCases)
    func observedOrderIsTheOrder(order: Int, h: Double) throws {
        let spring = try DampedSpring(stiffness: 100, damping: 2)
        let exact = try spring.motion(from: 0, to: 1)
        func error(_ h: Double) throws -> Double {
            let run = try Simulation(scene: PhysicsScene.spring(spring, from: 0, to: 1))
                .run(method: .adams(timeStep: h, order: order), duration: 2, sampleRate: 50)
            return (0..<run.count).map { abs(run.position(atSample: $0) - exact.position(at: run.times[$0])) }.max()!
        }
        let e1 = try error(h), e2 = try error(h / 2), e4 = try error(h / 4)
        for observed in [log2(e1 / e2), log2(e2 / e4)] {
            #expect(abs(observed - Double(order)) <= 0.1 * Double(order), "errors \(e1), \(e2), \(e4)")
        }
    }

    /// The work-precision spring (k = 1000, ζ = 0.1, 2 s): order 9 at 1/240 s is within 1e-9 of the
    /// analytic motion at the 60 Hz samples, order 11 at 1/360 s within 1e-12, with 2 evaluations a step.
    @Test func reachesTightTolerancesWithTwoEvaluationsAStep() throws {
        let spring = try DampedSpring(stiffness: 1000, dampingRatio: 0.1)
        let exact = try spring.motion()
        for (order, h, bound) in [(9, 1.0 / 240, 1e-9), (11, 1.0 / 360, 1e-12)] {
            let run = try Simulation(scene: PhysicsScene.spring(spring)).run(
                method: .adams(timeStep: h, order: order), duration: 2)
            let worst = (0..<run.count).map { abs(run.position(atSample: $0) - exact.position(at: run.times[$0])) }
                .max()!
            #expect(worst <= bound, "order \(order): \(worst)")
            // k − 1 DOP853 steps to start (12 evaluations each, plus the first derivative), then 2 a step.
            let steps = Int((2 / h).rounded())
            #expect(run.steps == steps)
            #expect(run.evaluations == 1 + 12 * (order - 1) + 2 * (steps - order + 1))
        }
    }

    /// x'' = t^(q−2) from rest (q ≥ 2; x'' = 0 from v = 1 at q = 1): f = (v, a) is a polynomial in
    /// t of degree q − 1, which order q integrates exactly, and so does its interpolant (degree
    /// q − 1 through q points, integrated); the DOP853 start-up's steps are exact too up to order 8
    /// (quadrature order 8; its dense output, order 7, is not checked). So every Adams step and
    /// every point inside one is x = t^q/(q(q − 1)), v = t^(q−1)/(q − 1) to rounding (order 6 with
    /// the interpolant's last term dropped: 7e-10 off).
    @Test(arguments: orders.filter { $0 <= 8 })
    func interpolantIsExactOnPolynomials(order q: Int) throws {
        struct PowerOfTime: SecondOrderSystem {
            let power: Double
            func acceleration(position: Double, velocity: Double, time: Double) -> Double {
                power < 0 ? 0 : pow(time, power)
            }
        }
        func exact(_ t: Double) -> (x: Double, v: Double) {
            q == 1 ? (t, 1) : (pow(t, Double(q)) / Double(q * (q - 1)), pow(t, Double(q - 1)) / Double(q - 1))
        }
        var integrator = AdamsBashforthMoulton(
            system: PowerOfTime(power: Double(q - 2)),
            state: PhaseState(position: 0, velocity: q == 1 ? 1 : 0), timeStep: 0.05, order: q)
        for _ in 0..<40 {
            try integrator.advance(toward: 10)
            guard integrator.steps >= q else { continue }  // the DOP853 start-up's steps
            let t0 = integrator.previousTime, h = integrator.time - t0
            for theta in [0.0, 0.13, 0.5, 0.87, 1.0] {
                let t = t0 + theta * h, state = integrator.interpolate(at: t), (x, v) = exact(t)
                #expect(abs(state.position - x) <= 1e-14 * (1 + abs(x)), "order \(q): x at \(t)")
                #expect(abs(state.velocity - v) <= 1e-14 * (1 + abs(v)), "order \(q): v at \(t)")
            }
        }
        #expect(abs(integrator.time - 2) <= 1e-15)
    }

    /// Between grid points (display frames of 60–120 Hz, jittered ±30 %): the interpolant adds no
    /// error of its own. Order 4 at 2 ms, where the method's error is visible (about 1e-8): the
    /// frames are no further from the analytic spring than 1.2× the worst grid point.
    @Test(arguments: [60.0, 120.0])
    func interpolatesBetweenGridPoints(rate: Double) throws {
        let spring = try DampedSpring(stiffness: 170, damping: 26)
        let exact = try spring.motion()
        let method = IntegrationMethod.adams(timeStep: 0.002, order: 4)
        let grid = try Simulation(scene: PhysicsScene.spring(spring)).run(method: method, duration: 2, sampleRate: 500)
        let gridError = (0..<grid.count).map { abs(grid.position(atSample: $0) - exact.position(at: grid.times[$0])) }
            .max()!
        #expect(gridError > 1e-9)
        var rng = SplitMix64(seed: UInt64(rate))
        let frames = (0..<Int(2 * rate)).map { _ in (1 / rate) * (1 + 0.3 * Double.random(in: -1...1, using: &rng)) }
        let run = try Simulation(scene: PhysicsScene.spring(spring)).run(method: method, frameDurations: frames)
        #expect(run.count == frames.count + 1)
        for i in 0..<run.count {
            let error = abs(run.position(atSample: i) - exact.position(at: run.times[i]))
            #expect(error <= 1.2 * gridError, "t = \(run.times[i]): \(error), grid \(gridError)")
        }
    }

    /// The same at every order from 5, on a stiffer spring (k = 1000, ζ = 0.1) at 1/120 and 1/150 s,
    /// where each order's error is far above rounding (6e-5 at order 5 down to 1e-10 at order 12
    /// at 1/150 s; a wrong interpolant weight shows at 1e-4 of h·f), and for the
    /// samples of a 60 Hz run on a 1/150-s grid (every other one between steps), as a user who picks
    /// a step that does not divide the frame gets them: no further from the analytic spring than
    /// 1.2× the worst grid point.
    @Test(arguments: orders.filter { $0 >= 5 })
    func interpolatesBetweenGridPointsAtEveryOrder(order: Int) throws {
        let spring = try DampedSpring(stiffness: 1000, dampingRatio: 0.1)
        let exact = try spring.motion(), simulation = Simulation(scene: try PhysicsScene.spring(spring))
        for h in [1.0 / 120, 1.0 / 150] {
            let method = IntegrationMethod.adams(timeStep: h, order: order)
            let grid = try simulation.run(method: method, duration: 2, sampleRate: 1 / h)
            let gridError = (0..<grid.count).map {
                abs(grid.position(atSample: $0) - exact.position(at: grid.times[$0]))
            }.max()!
            #expect(gridError > 1e-11)
            var rng = SplitMix64(seed: UInt64(order))
            let frames = (0..<120).map { _ in (1.0 / 60) * (1 + 0.3 * Double.random(in: -1...1, using: &rng)) }
            for run in [
                try simulation.run(method: method, frameDurations: frames),
                try simulation.run(method: method, duration: 2, sampleRate: 60)
            ] {
                for i in 0..<run.count {
                    let error = abs(run.position(atSample: i) - exact.position(at: run.times[i]))
                    #expect(
                        error <= 1.2 * gridError,
                        "order \(order), h \(h), t = \(run.times[i]): \(error), grid \(gridError)")
                }
            }
        }
    }

    /// The run of plain grid steps (`advance(toward:reaching:)`, state in registers, no per-step
    /// checks) takes the same steps as one step a call (`advance(toward:)`, every check): the
    /// same arithmetic in the same order, so the same bits, at every order, through the history's
    /// start, the steps next to the limit and an off-grid last step (2.3004 s on a 1/960-s grid),
    /// with the run's end as the limit (display frames) or each sample (fixed-step batch runs:
    /// i/60 is a grid point up to rounding, and the step there ends on it exactly).
    @Test(arguments: orders, [false, true])
    func gridStepsAreTheSteps(order: Int, limitedBySamples: Bool) throws {
        let spring = try DampedSpring(stiffness: 400, dampingRatio: 0.2)
        let system = SceneSystem<Double>(scene: try PhysicsScene.spring(spring))
        let start = system.initialState, h = 1.0 / 960, end = 2.3004
        var single = AdamsBashforthMoulton(system: system, state: start, timeStep: h, order: order)
        var runs = single
        var targets = (1...138).map { Double($0) / 60 }
        targets.append(end)
        for target in targets {
            let limit = limitedBySamples ? target : end
            while single.time < target { try single.advance(toward: limit) }
            while runs.time < target { try runs.advance(toward: limit, reaching: target) }
            #expect(runs.time == single.time && runs.steps == single.steps)
            #expect(!limitedBySamples || runs.time == target)
            #expect(
                runs.state.position == single.state.position && runs.state.velocity == single.state.velocity,
                "order \(order), t = \(target)")
        }
        #expect(single.time == end)
    }

    /// Integrators are values: a copy shares the history and the DOP853 stages (kept on the heap)
    /// only until one of them writes, so stepping and interpolating a copy, through a DOP853 step
    /// off the grid, leaves the original's next steps and interpolants bit for bit those of a run
    /// that was never copied.
    @Test func copiesStepIndependently() throws {
        let system = SceneSystem<Double>(
            scene: try PhysicsScene.spring(try DampedSpring(stiffness: 400, dampingRatio: 0.2)))
        func integrator() -> AdamsBashforthMoulton<PackedAdamsStorage<SceneSystem<Double>>> {
            AdamsBashforthMoulton(system: system, state: system.initialState, timeStep: 1.0 / 240, order: 8)
        }
        var original = integrator(), untouched = integrator()
        for _ in 0..<5 {  // within the DOP853 start
            try original.advance(toward: 1)
            try untouched.advance(toward: 1)
        }
        var copy = original
        for _ in 0..<40 { try copy.advance(toward: 0.1001) }
        copy.prepareInterpolation()
        #expect(copy.time == 0.1001)
        for _ in 0..<40 {
            try original.advance(toward: 1)
            try untouched.advance(toward: 1)
            let t = (original.previousTime + original.time) / 2
            #expect(
                original.state.position == untouched.state.position
                    && original.state.velocity == untouched.state.velocity)
            #expect(original.interpolate(at: t).position == untouched.interpolate(at: t).position, "t = \(t)")
        }
    }

    /// Order 1 (x_n+1 = x_n + h v_n + h²/2 a, v_n+1 = v_n + h a, the Euler predictor and the backward
    /// Euler corrector): on an undamped spring the step's matrix on (x, v) has trace
    /// 2 − 3(ωh)²/2 + (ωh)⁴/4 and determinant 1 − (ωh)²/2 − (ωh)⁴/4, so its roots leave the unit
    /// circle, at ±1, exactly when ωh passes √2.
    @Test func firstOrderLimitIsTheClosedForm() {
        let limit = AdamsBashforthMoulton<PackedAdamsStorage<SceneSystem<Double>>>.largestStableStep(
            order: 1, omega: 10, dampingRatio: 0)
        #expect(abs(limit - 2.0.squareRoot() / 10) <= 1e-4, "\(limit)")
    }

    /// The limit decides real runs: at 0.8× the computed step a 10 s run on the work-precision
    /// spring stays within its energy, at 1.5× it stops with `unstable`, naming the limit.
    @Test(arguments: [4, 8, 10, 12])
    func stabilityLimitSeparatesBoundedFromGrowingRuns(order: Int) throws {
        let spring = try DampedSpring(stiffness: 1000, dampingRatio: 0.1)
        let limit = AdamsBashforthMoulton<PackedAdamsStorage<SceneSystem<Double>>>.largestStableStep(
            order: order, omega: spring.undampedFrequency, dampingRatio: spring.dampingRatio)
        let simulation = Simulation(scene: try PhysicsScene.spring(spring))
        let bounded = try simulation.run(method: .adams(timeStep: 0.8 * limit, order: order), duration: 10)
        #expect(abs(bounded.position(atSample: bounded.count - 1) - 1) <= 1e-3)
        do {
            _ = try simulation.run(method: .adams(timeStep: 1.5 * limit, order: order), duration: 10)
            Issue.record("order \(order) at 1.5× its limit \(limit) ran without growing")
        } catch let SimulationError.unstable(_, _, _, largest, method) {
            #expect(method == "adams")
            #expect(abs(largest - limit) <= 1e-9 * limit)
        }
    }

    /// The bounds a run trusts instead of scanning: below the order's limit at every damping ratio
    /// of their tenth (its ends and the midpoints of the 0.01 grid they were taken from, and
    /// ζ = 2 for the last, in units of the fastest rate), and within 80 % of the least limit there
    /// (a bound of 0 would pass and scan every run).
    @Test(arguments: 1...12)
    func stepStableOnEverySpringIsBelowEveryLimit(order: Int) {
        for tenth in 0..<10 {
            let low = Double(tenth) / 10
            var ratios = [low, low + 0.1] + (0..<10).map { low + (Double($0) + 0.5) / 100 }
            if tenth == 9 { ratios.append(2) }
            var least = Double.infinity
            for zeta in ratios {
                let fastest = IntegrationMethod.fastestRate(omega: 1, dampingRatio: zeta)
                least = min(
                    least,
                    fastest
                        * AdamsBashforthMoulton<PackedAdamsStorage<SceneSystem<Double>>>.largestStableStep(
                            order: order, omega: 1, dampingRatio: zeta))
            }
            let bound = AdamsBashforthMoulton<PackedAdamsStorage<SceneSystem<Double>>>.stepStableOnEverySpring(
                order: order, dampingRatio: low + 0.05)
            #expect(
                bound < least && bound >= 0.8 * least,
                "order \(order), ζ in [\(low), \(low + 0.1)]: bound \(bound), least limit \(least)")
        }
    }

    @Test func rejectsOrdersItDoesNotHave() {
        for order in [0, -1, 13] {
            #expect(throws: KinemaError.self) {
                try Simulation(scene: PhysicsScene.drop()).run(
                    method: .adams(timeStep: 0.01, order: order), duration: 1)
            }
        }
        #expect(throws: KinemaError.self) {
            try Simulation(scene: PhysicsScene.drop()).run(method: .adams(timeStep: .nan, order: 4), duration: 1)
        }
    }
}
