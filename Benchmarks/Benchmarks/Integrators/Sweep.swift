import Benchmark
import Foundation
import Kinema

/// The sweep: eight springs on the lanes of one RK4 step (what `kinema sweep` batches), and the
/// whole command on 20,000 two-second springs (RK4 at 1/600 s, all metrics, CSV) on two threads.
func sweepBenchmarks() {
    // 8 springs, one per SIMD8 lane, stepped 1,000 times per scaled iteration: ns per step / 8 is
    // the cost of one spring-step, against RK4.Double.springStep for one spring alone.
    let bodies = (0..<8).map { try! PhysicsBody(name: "lane \($0)", position: [0]) }
    let springs = (0..<8).map {
        try! SpringForce(.anchor(body: $0, at: [1]), stiffness: 100 + 100 * Double($0), damping: 2)
    }
    let lanes = SceneSystem<SIMD8<Double>>(scene: try! PhysicsScene(dimensions: 1, bodies: bodies, springs: springs))
    measureSteps("Sweep.RK4.8lanes.springStep") {
        FixedStepIntegrator(system: lanes, method: RK4.self, state: lanes.initialState, timeStep: 1e-3)
    }

    // The release binary, as a user runs it (KINEMA overrides the path); springs per second =
    // 20,000 / the time per iteration, process start included (20,000 springs make it small).
    Benchmark(
        "Sweep.kinema.20000springs.2threads",
        configuration: .init(metrics: [.wallClock], maxDuration: .seconds(20), maxIterations: 10)
    ) { benchmark in
        let binary =
            ProcessInfo.processInfo.environment["KINEMA"]
            ?? FileManager.default.currentDirectoryPath + "/../.build/release/kinema"
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            fatalError(
                "\(binary) is missing: run 'swift build -c release --product kinema' first (make benchmarks does)")
        }
        let arguments = [
            "sweep", "--spring", "--stiffness", "100:1000:x200", "--damping-ratio", "0.1:1.0:x100", "--duration", "2",
            "--integrator", "rk4", "--dt", "\(1.0 / 600)", "--threads", "2"
        ]
        for _ in benchmark.scaledIterations {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            try! process.run()
            process.waitUntilExit()
            precondition(process.terminationStatus == 0, "kinema sweep failed")
        }
    }
}
