import Benchmark
import CBaseline
import Kinema

/// Kinema's RK4 on a 1-D spring against plain C and GSL on the same spring, in the same run.
/// Each iteration is 1,000 steps of h = 1e-3 (k = 100, c = 2, unit mass): read ns per step as the
/// reported time / 1,000 (scalingFactor .kilo reports per step directly).
func baselineBenchmarks() {
    let steps = 1_000
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo,
                                                maxDuration: .seconds(2))

    let spring100 = SceneSystem<Double>(scene: try! Scene.spring(Spring(stiffness: 100, damping: 2)))
    measureSteps("RK4.Double.springStep") {
        FixedStepIntegrator(system: spring100, method: RK4.self, state: spring100.initialState, timeStep: 1e-3)
    }

    Benchmark("C.RK4.springStep", configuration: configuration) { benchmark in
        var state = cbaseline_state(x: 0, v: 0)
        benchmark.startMeasurement()
        for _ in 0..<(benchmark.scaledIterations.count / steps) { state = cbaseline_rk4(state, 100, 2, 1e-3, steps) }
        benchmark.stopMeasurement()
        blackHole(state)
    }

    Benchmark("GSL.rk4.C.springStep", configuration: configuration) { benchmark in
        var state = cbaseline_state(x: 0, v: 0)
        benchmark.startMeasurement()
        for _ in 0..<(benchmark.scaledIterations.count / steps) { state = cbaseline_gsl_rk4(state, 100, 2, 1e-3, steps) }
        benchmark.stopMeasurement()
        blackHole(state)
    }

    // GSL's other explicit step types through the same driver, fixed step, on the same spring.
    for (name, method) in [("rk2", CBASELINE_GSL_RK2), ("rkf45", CBASELINE_GSL_RKF45), ("rkck", CBASELINE_GSL_RKCK),
                           ("rk8pd", CBASELINE_GSL_RK8PD)] {
        Benchmark("GSL.\(name).C.springStep", configuration: configuration) { benchmark in
            var state = cbaseline_state(x: 0, v: 0)
            benchmark.startMeasurement()
            for _ in 0..<(benchmark.scaledIterations.count / steps) { state = cbaseline_gsl_fixed(Int32(method), state, 100, 2, 1e-3, steps) }
            benchmark.stopMeasurement()
            blackHole(state)
        }
    }

    // Kinema's other fixed-step methods on the SIMD2 spring of RK4.SIMD2.springStep.
    let spring = simd2Spring()
    measureSteps("Euler.SIMD2.springStep") { FixedStepIntegrator(system: spring, method: ExplicitEuler.self, state: spring.initialState, timeStep: 1e-3) }
    measureSteps("SemiImplicitEuler.SIMD2.springStep") {
        FixedStepIntegrator(system: spring, method: SemiImplicitEuler.self, state: spring.initialState, timeStep: 1e-3)
    }
    measureSteps("Verlet.SIMD2.springStep") {
        FixedStepIntegrator(system: spring, method: VelocityVerlet.self, state: spring.initialState, timeStep: 1e-3)
    }

    Benchmark("Curves.bezier.value", configuration: .init(metrics: [.wallClock], scalingFactor: .kilo, maxDuration: .seconds(2))) { benchmark in
        let f = try! CubicBezierTimingFunction(x1: 0.3, y1: -0.4, x2: 0.6, y2: 1.5)
        var t = 0.0, sum = 0.0
        for _ in benchmark.scaledIterations {
            sum += f.value(at: t)
            t += 0.000_999
            if t > 1 { t -= 1 }
        }
        blackHole(sum)
    }

    Benchmark("Curves.oscillator.position", configuration: .init(metrics: [.wallClock], scalingFactor: .kilo, maxDuration: .seconds(2))) { benchmark in
        let motion = try! Spring(stiffness: 170, damping: 26).motion(initialVelocity: 3)
        var t = 0.0, sum = 0.0
        for _ in benchmark.scaledIterations {
            sum += motion.position(at: t)
            t += 0.000_999
        }
        blackHole(sum)
    }
}

/// Per-step cost of the adaptive methods (per accepted step), and of every integrator on a coupled
/// N-body chain (fixed step h = 1e-4; adaptive at 1e-8).
func adaptiveAndChainBenchmarks() {
    let spring1000 = SceneSystem<Double>(scene: try! Scene.spring(Spring(stiffness: 1000, dampingRatio: 0.1)))
    measureSteps("DP5.Double.acceptedStep") {
        DormandPrince54(system: spring1000, state: spring1000.initialState, absoluteTolerance: 1e-10, relativeTolerance: 1e-10)
    }
    measureSteps("DOP853.Double.acceptedStep") {
        DOP853(system: spring1000, state: spring1000.initialState, absoluteTolerance: 1e-12, relativeTolerance: 1e-12)
    }
    let spring = simd2Spring()
    measureSteps("DP5.SIMD2.acceptedStep") {
        DormandPrince54(system: spring, state: spring.initialState, absoluteTolerance: 1e-10, relativeTolerance: 1e-10)
    }
    measureSteps("DOP853.SIMD2.acceptedStep") {
        DOP853(system: spring, state: spring.initialState, absoluteTolerance: 1e-12, relativeTolerance: 1e-12)
    }
    let chain = chain()
    measureSteps("Euler.Chain12x3D.step") { FixedStepIntegrator(system: chain, method: ExplicitEuler.self, state: chain.initialState, timeStep: 1e-4) }
    measureSteps("SemiImplicitEuler.Chain12x3D.step") {
        FixedStepIntegrator(system: chain, method: SemiImplicitEuler.self, state: chain.initialState, timeStep: 1e-4)
    }
    measureSteps("Verlet.Chain12x3D.step") {
        FixedStepIntegrator(system: chain, method: VelocityVerlet.self, state: chain.initialState, timeStep: 1e-4)
    }
    measureSteps("RK4.Chain12x3D.step") { FixedStepIntegrator(system: chain, method: RK4.self, state: chain.initialState, timeStep: 1e-4) }
    measureSteps("DP5.Chain12x3D.acceptedStep") {
        DormandPrince54(system: chain, state: chain.initialState, absoluteTolerance: 1e-8, relativeTolerance: 1e-8)
    }
    measureSteps("DOP853.Chain12x3D.acceptedStep") {
        DOP853(system: chain, state: chain.initialState, absoluteTolerance: 1e-8, relativeTolerance: 1e-8)
    }
}
