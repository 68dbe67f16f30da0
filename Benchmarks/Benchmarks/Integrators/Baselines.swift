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

    Benchmark("RK4.Double.springStep", configuration: configuration) { benchmark in
        let scene = try! Scene.spring(Spring(stiffness: 100, damping: 2))
        let system = SceneSystem<Double>(scene: scene)
        var integrator = FixedStepIntegrator(system: system, method: RK4.self, state: system.initialState, timeStep: 1e-3)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try! integrator.advance(toward: .infinity) }
        benchmark.stopMeasurement()
        blackHole(integrator.state)
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
    func simd2Spring<M: FixedStepMethod>(_ name: String, _ method: M.Type) {
        Benchmark("\(name).SIMD2.springStep", configuration: configuration) { benchmark in
            let body = try! Body(name: "b", position: [1, 0], velocity: [0, 1])
            let scene = try! Scene(dimensions: 2, bodies: [body],
                                   springs: [SpringForce(.anchor(body: 0, at: [0, 0]), stiffness: 100, damping: 2)])
            let system = SceneSystem<SIMD2<Double>>(scene: scene)
            var integrator = FixedStepIntegrator(system: system, method: method, state: system.initialState, timeStep: 1e-3)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { try! integrator.advance(toward: .infinity) }
            benchmark.stopMeasurement()
            blackHole(integrator.state)
        }
    }
    simd2Spring("Euler", ExplicitEuler.self)
    simd2Spring("SemiImplicitEuler", SemiImplicitEuler.self)
    simd2Spring("Verlet", VelocityVerlet.self)

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

/// Per-step cost of the adaptive methods and of RK4 on a coupled N-body chain.
func adaptiveAndChainBenchmarks() {
    Benchmark("DP5.Double.acceptedStep", configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo,
                                                                maxDuration: .seconds(2))) { benchmark in
        let scene = try! Scene.spring(Spring(stiffness: 1000, dampingRatio: 0.1))
        let system = SceneSystem<Double>(scene: scene)
        var integrator = DormandPrince54(system: system, state: system.initialState, absoluteTolerance: 1e-10, relativeTolerance: 1e-10)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try! integrator.advance(toward: .infinity) }
        benchmark.stopMeasurement()
        blackHole(integrator.state)
    }

    Benchmark("DOP853.Double.acceptedStep", configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo,
                                                                   maxDuration: .seconds(2))) { benchmark in
        let scene = try! Scene.spring(Spring(stiffness: 1000, dampingRatio: 0.1))
        let system = SceneSystem<Double>(scene: scene)
        var integrator = DOP853(system: system, state: system.initialState, absoluteTolerance: 1e-12, relativeTolerance: 1e-12)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try! integrator.advance(toward: .infinity) }
        benchmark.stopMeasurement()
        blackHole(integrator.state)
    }

    // The other integrators on the same chain (fixed step h = 1e-4; adaptive per accepted step at
    // 1e-8), and the adaptive ones on the SIMD2 spring of the fixed-step benchmarks.
    func chainScene() -> Scene {
        var bodies: [Body] = [], springs: [SpringForce] = []
        for i in 0..<12 {
            bodies.append(try! Body(name: "b\(i)", mass: 0.2, position: [0.3 * Double(i + 1), 0, 0.05 * Double(i)]))
            springs.append(try! SpringForce(i == 0 ? .anchor(body: 0, at: [0, 0, 0]) : .bodies(i - 1, i),
                                            stiffness: 80, damping: 0.3, restLength: 0.25))
        }
        return try! Scene(dimensions: 3, bodies: bodies, springs: springs, gravity: [0, 0, -9.81])
    }
    func simd2Scene() -> Scene {
        let body = try! Body(name: "b", position: [1, 0], velocity: [0, 1])
        return try! Scene(dimensions: 2, bodies: [body], springs: [SpringForce(.anchor(body: 0, at: [0, 0]), stiffness: 100, damping: 2)])
    }
    func measure<I: Integrator>(_ name: String, _ make: @escaping () -> I) {
        Benchmark(name, configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(2))) { benchmark in
            var integrator = make()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { try! integrator.advance(toward: .infinity) }
            benchmark.stopMeasurement()
            blackHole(integrator.time)
        }
    }
    let chain = SceneSystem<SIMD64<Double>>(scene: chainScene()), spring = SceneSystem<SIMD2<Double>>(scene: simd2Scene())
    measure("Euler.Chain12x3D.step") { FixedStepIntegrator(system: chain, method: ExplicitEuler.self, state: chain.initialState, timeStep: 1e-4) }
    measure("SemiImplicitEuler.Chain12x3D.step") {
        FixedStepIntegrator(system: chain, method: SemiImplicitEuler.self, state: chain.initialState, timeStep: 1e-4)
    }
    measure("Verlet.Chain12x3D.step") { FixedStepIntegrator(system: chain, method: VelocityVerlet.self, state: chain.initialState, timeStep: 1e-4) }
    measure("DP5.Chain12x3D.acceptedStep") {
        DormandPrince54(system: chain, state: chain.initialState, absoluteTolerance: 1e-8, relativeTolerance: 1e-8)
    }
    measure("DOP853.Chain12x3D.acceptedStep") { DOP853(system: chain, state: chain.initialState, absoluteTolerance: 1e-8, relativeTolerance: 1e-8) }
    measure("DP5.SIMD2.acceptedStep") {
        DormandPrince54(system: spring, state: spring.initialState, absoluteTolerance: 1e-10, relativeTolerance: 1e-10)
    }
    measure("DOP853.SIMD2.acceptedStep") { DOP853(system: spring, state: spring.initialState, absoluteTolerance: 1e-12, relativeTolerance: 1e-12) }

    Benchmark("RK4.Chain12x3D.step", configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo,
                                                           maxDuration: .seconds(2))) { benchmark in
        var bodies: [Body] = [], springs: [SpringForce] = []
        for i in 0..<12 {
            bodies.append(try! Body(name: "b\(i)", mass: 0.2, position: [0.3 * Double(i + 1), 0, 0.05 * Double(i)]))
            springs.append(try! SpringForce(i == 0 ? .anchor(body: 0, at: [0, 0, 0]) : .bodies(i - 1, i),
                                            stiffness: 80, damping: 0.3, restLength: 0.25))
        }
        let scene = try! Scene(dimensions: 3, bodies: bodies, springs: springs, gravity: [0, 0, -9.81])
        let system = SceneSystem<SIMD64<Double>>(scene: scene)
        var integrator = FixedStepIntegrator(system: system, method: RK4.self, state: system.initialState, timeStep: 1e-4)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try! integrator.advance(toward: .infinity) }
        benchmark.stopMeasurement()
        blackHole(integrator.state)
    }
}
