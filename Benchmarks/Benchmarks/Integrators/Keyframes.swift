import Benchmark
import Kinema

/// Baking the seed's spring (1 − e^(−5t)cos(30t)) into keyframes within 1e-3: target < 1 ms.
func keyframeBenchmarks() {
    Benchmark("Keyframes.adaptive.seedSpring", configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3))) { benchmark in
        let source = try! MotionSource(easing: .dampedCosine(.seed))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try! KeyframeBaker.bake(source, strategy: .adaptive, tolerance: 1e-3))
        }
    }
}
