import Benchmark
import CBaseline
@_spi(Engine) import Kinema

/// Kinema's RK4 on a 1-D spring against plain C and GSL on the same spring, in the same run.
/// Each iteration is 1,000 steps of h = 1e-3 (k = 100, c = 2, unit mass): read ns per step as the
/// reported time / 1,000 (scalingFactor .kilo reports per step directly).
func baselineBenchmarks() {
    let steps = 1_000
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo,
        maxDuration: .seconds(2))

    let spring100 = SceneSystem<Double>(scene: try! PhysicsScene.spring(DampedSpring(stiffness: 100, damping: 2)))
    measureSteps("RK4.Double.springStep") {
        FixedStepIntegrator(system: spring100, method: RK4.self, state: spring100.initialState, timeStep: 1e-3)
    }

    // A C loop of `steps` steps per call, from x = 0, v = 0.
    func measureC(_ name: String, _ run: @escaping (cbaseline_state) -> cbaseline_state) {
        Benchmark(name, configuration: configuration) { benchmark in
            var state = cbaseline_state(x: 0, v: 0)
            benchmark.startMeasurement()
            for _ in 0..<(benchmark.scaledIterations.count / steps) { state = run(state) }
            benchmark.stopMeasurement()
            blackHole(state)
        }
    }
    measureC("C.RK4.springStep") { cbaseline_rk4($0, 100, 2, 1e-3, steps) }
    // The whole run as `kinema simulate --integrator rk4` makes it (scene, driver, checks, two
    // samples), 1,000 steps per run (set-up included), against the C loop above: ns per step.
    let spring = try! PhysicsScene.spring(DampedSpring(stiffness: 100, damping: 2))
    Benchmark("Run.RK4.Double.springStep", configuration: configuration) { benchmark in
        let simulation = Simulation(scene: spring)
        var last = 0.0
        benchmark.startMeasurement()
        for _ in 0..<(benchmark.scaledIterations.count / steps) {
            last += try! simulation.run(method: .rk4(timeStep: 1e-3), duration: 1, sampleRate: 1).position(atSample: 1)
        }
        benchmark.stopMeasurement()
        blackHole(last)
    }
    measureC("GSL.rk4.C.springStep") { cbaseline_gsl_rk4($0, 100, 2, 1e-3, steps) }
    // GSL's other explicit step types through the same driver, fixed step, on the same spring.
    for (name, method) in [
        ("rk2", CBASELINE_GSL_RK2), ("rkf45", CBASELINE_GSL_RKF45), ("rkck", CBASELINE_GSL_RKCK),
        ("rk8pd", CBASELINE_GSL_RK8PD)
    ] {
        measureC("GSL.\(name).C.springStep") { cbaseline_gsl_fixed(Int32(method), $0, 100, 2, 1e-3, steps) }
    }

    // Kinema's other fixed-step methods on the SIMD2 spring of RK4.SIMD2.springStep.
    measureLowOrderSteps(simd2Spring(), timeStep: 1e-3, label: "SIMD2.springStep")

    Benchmark(
        "Curves.bezier.value",
        configuration: .init(metrics: [.wallClock], scalingFactor: .kilo, maxDuration: .seconds(2))
    ) { benchmark in
        let f = try! CubicBezierTimingFunction(x1: 0.3, y1: -0.4, x2: 0.6, y2: 1.5)
        var t = 0.0, sum = 0.0
        for _ in benchmark.scaledIterations {
            sum += f.value(at: t)
            t += 0.000_999
            if t > 1 { t -= 1 }
        }
        blackHole(sum)
    }

    Benchmark(
        "Curves.oscillator.position",
        configuration: .init(metrics: [.wallClock], scalingFactor: .kilo, maxDuration: .seconds(2))
    ) { benchmark in
        let motion = try! DampedSpring(stiffness: 170, damping: 26).motion(initialVelocity: 3)
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
    let spring1000 = SceneSystem<Double>(
        scene: try! PhysicsScene.spring(DampedSpring(stiffness: 1000, dampingRatio: 0.1)))
    measureAdaptiveSteps(spring1000, dp5: 1e-10, dop853: 1e-12, label: "Double.acceptedStep")
    measureAdaptiveSteps(simd2Spring(), dp5: 1e-10, dop853: 1e-12, label: "SIMD2.acceptedStep")
    // Adams order 9 at 1/240 s: one grid step per call (a whole run takes several per call).
    measureSteps("Adams9.Double.step") {
        AdamsBashforthMoulton(system: spring1000, state: spring1000.initialState, timeStep: 1.0 / 240, order: 9)
    }
    // The chain (36 coordinates) in flat storage, stepped in place as `Simulation` steps it.
    let chain = chain(), start = chain.initialState
    measureSteps("Euler.Chain12x3D.step") {
        FixedStepIntegrator(
            system: chain, storage: FlatStepStorage.self, method: ExplicitEuler.self, state: start, timeStep: 1e-4)
    }
    measureSteps("SemiImplicitEuler.Chain12x3D.step") {
        FixedStepIntegrator(
            system: chain, storage: FlatStepStorage.self, method: SemiImplicitEuler.self, state: start, timeStep: 1e-4)
    }
    measureSteps("Verlet.Chain12x3D.step") {
        FixedStepIntegrator(
            system: chain, storage: FlatStepStorage.self, method: VelocityVerlet.self, state: start, timeStep: 1e-4)
    }
    measureSteps("RK4.Chain12x3D.step") {
        FixedStepIntegrator(
            system: chain, storage: FlatStepStorage.self, method: RK4.self, state: start, timeStep: 1e-4)
    }
    measureSteps("DP5.Chain12x3D.acceptedStep") {
        AdaptiveIntegrator(
            system: chain, storage: FlatAdaptiveStorage.self, method: DormandPrince54.self, state: start,
            absoluteTolerance: 1e-8,
            relativeTolerance: 1e-8)
    }
    measureSteps("DOP853.Chain12x3D.acceptedStep") {
        AdaptiveIntegrator(
            system: chain, storage: FlatAdaptiveStorage.self, method: DOP853.self, state: start,
            absoluteTolerance: 1e-8,
            relativeTolerance: 1e-8)
    }
    measureSteps("Adams8.Chain12x3D.step") {
        AdamsBashforthMoulton(system: chain, storage: FlatAdamsStorage.self, state: start, timeStep: 1e-4, order: 8)
    }
}

/// Whole runs as `kinema work-precision --spring --stiffness 1000 --damping-ratio 0.1 --duration 2`
/// times them (2 s, 121 samples at 60 Hz, trajectory included), against GSL's rk8pd with a C
/// right-hand side: the cheapest settings that reach 1e-9 (Adams 9 at 1/240 s: 5.6e-10; rk8pd at
/// any loose tolerance, landing on every sample: 3.6e-10) and 1e-12 (Adams 10 at 1/360 s: 9.5e-13;
/// rk8pd at 1e-11: 4.5e-13). One run per iteration.
func workPrecisionRunBenchmarks() {
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2))
    let spring = try! DampedSpring(stiffness: 1000, dampingRatio: 0.1)
    let simulation = Simulation(scene: try! PhysicsScene.spring(spring))
    let exact = try! spring.motion()
    /// The max error at the 60 Hz samples, so each run is checked to reach its level before it is timed.
    func worst(_ positions: [Double]) -> Double {
        positions.indices.map { abs(positions[$0] - exact.position(at: $0 == 120 ? 2 : Double($0) / 60)) }.max()!
    }
    for (name, method) in [
        ("Run.Adams9.1e-9", IntegrationMethod.adams(timeStep: 1.0 / 240, order: 9)),
        ("Run.Adams10.1e-12", .adams(timeStep: 1.0 / 360, order: 10))
    ] {
        let bound = name.hasSuffix("1e-9") ? 1e-9 : 1e-12
        precondition(worst(try! simulation.run(method: method, duration: 2).positions) <= bound, name)
        Benchmark(name, configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try! simulation.run(method: method, duration: 2)) }
        }
    }
    func gsl(_ tolerance: Double, into positions: inout [Double]) {
        let status = positions.withUnsafeMutableBufferPointer {
            cbaseline_gsl_rk8pd_samples(spring.stiffness, spring.damping, tolerance, 2, 60, $0.baseAddress, 121)
        }
        precondition(status == 0)
    }
    for (name, tolerance, bound) in [("Run.GSL.rk8pd.C.1e-9", 1e-8, 1e-9), ("Run.GSL.rk8pd.C.1e-12", 1e-11, 1e-12)] {
        var check = [Double](repeating: 0, count: 121)
        gsl(tolerance, into: &check)
        precondition(worst(check) <= bound, name)
        Benchmark(name, configuration: configuration) { benchmark in
            var positions = [Double](repeating: 0, count: 121)
            for _ in benchmark.scaledIterations { gsl(tolerance, into: &positions) }
            blackHole(positions)
        }
    }
}
