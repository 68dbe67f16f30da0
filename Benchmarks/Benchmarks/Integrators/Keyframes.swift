import Benchmark
import Kinema

/// Baking the jelly spring (1 − e^(−5t)cos(30t)) into keyframes within 1e-3: target < 1 ms;
/// and Lockwood's bounce (four parabolic arcs, impacts as knots) at the same tolerance.
func keyframeBenchmarks() {
    Benchmark(
        "Keyframes.adaptive.jellySpring",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3))
    ) { benchmark in
        let source = try! MotionSource(easing: .dampedCosine(.jelly))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try! KeyframeBaker.bake(source, strategy: .adaptive, tolerance: 1e-3))
        }
    }

    Benchmark(
        "Keyframes.adaptive.lockwoodBounce",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3))
    ) { benchmark in
        let source = try! MotionSource(easing: .lockwoodBounce)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try! KeyframeBaker.bake(source, strategy: .adaptive, tolerance: 1e-3))
        }
    }
}
