import Benchmark
import Kinema

/// Baking the seed's spring (1 − e^(−5t)cos(30t)) into keyframes within 1e-3: target < 1 ms;
/// and the seed's bounce (four parabolic arcs, impacts as knots) at the same tolerance.
func keyframeBenchmarks() {
    Benchmark("Keyframes.adaptive.seedSpring", configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3))) { benchmark in
        let source = try! MotionSource(easing: .dampedCosine(.seed))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try! KeyframeBaker.bake(source, strategy: .adaptive, tolerance: 1e-3))
        }
    }

    Benchmark("Keyframes.adaptive.seedBounce", configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3))) { benchmark in
        let source = try! MotionSource(easing: .seedBounce)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try! KeyframeBaker.bake(source, strategy: .adaptive, tolerance: 1e-3))
        }
    }
}
