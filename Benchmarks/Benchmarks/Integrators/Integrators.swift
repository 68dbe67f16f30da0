import Benchmark
@_spi(Engine) import Kinema

let benchmarks: @Sendable () -> Void = {
    keyframeBenchmarks()
    sweepBenchmarks()
    baselineBenchmarks()
    adaptiveAndChainBenchmarks()
    workPrecisionRunBenchmarks()
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .instructions], maxDuration: .seconds(2))

    // One body on a 2-D spring: allocations must be 0.
    measureSteps("RK4.SIMD2.springStep") {
        let system = simd2Spring()
        return FixedStepIntegrator(system: system, method: RK4.self, state: system.initialState, timeStep: 1e-3)
    }
}
