import Benchmark
import Kinema

let benchmarks: @Sendable () -> Void = {
    keyframeBenchmarks()
    sweepBenchmarks()
    baselineBenchmarks()
    adaptiveAndChainBenchmarks()
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal, .instructions], maxDuration: .seconds(2))

    // One body on a 2-D spring, stepped 10,000 times per iteration: allocations must be 0.
    Benchmark("RK4.SIMD2.springStep", configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo)) { benchmark in
        let body = try! Body(name: "b", position: [1, 0], velocity: [0, 1])
        let scene = try! Scene(dimensions: 2, bodies: [body],
                               springs: [SpringForce(.anchor(body: 0, at: [0, 0]), stiffness: 100, damping: 2)])
        let system = SceneSystem<SIMD2<Double>>(scene: scene)
        var integrator = FixedStepIntegrator(system: system, method: RK4.self, state: system.initialState, timeStep: 1e-3)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try! integrator.advance(toward: .infinity)
        }
        benchmark.stopMeasurement()
        blackHole(integrator.state)
    }
}
