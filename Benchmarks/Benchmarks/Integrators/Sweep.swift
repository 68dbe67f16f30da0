import Benchmark
import CBaseline
import Foundation
@_spi(Engine) import Kinema

/// The sweep: eight springs on the lanes of one RK4 step (what `kinema sweep` batches), the whole
/// command on two-second springs (RK4 at 1/600 s, sampled at 60 Hz, CSV), and plain C doing the
/// arithmetic of the three cheap metrics' rows.
func sweepBenchmarks() {
    // 8 springs, one per SIMD8 lane, stepped 1,000 times per scaled iteration: ns per step / 8 is
    // the cost of one spring-step, against RK4.Double.springStep for one spring alone.
    let bodies = (0..<8).map { try! PhysicsBody(name: "lane \($0)", position: SIMD3(0, 0, 0)) }
    let springs = (0..<8).map {
        try! SpringForce(.anchor(body: $0, at: SIMD3(1, 0, 0)), stiffness: 100 + 100 * Double($0), damping: 2)
    }
    let lanes = SceneSystem<SIMD8<Double>>(scene: try! PhysicsScene(dimensions: 1, bodies: bodies, springs: springs))
    measureSteps("Sweep.RK4.8lanes.springStep") {
        FixedStepIntegrator(system: lanes, method: RK4.self, state: lanes.initialState, timeStep: 1e-3)
    }

    // The release binary, as a user runs it (KINEMA overrides the path), process start included:
    // springs per second = springs / the time per iteration. All metrics (the keyframe bake
    // included) on 20,000 springs; the three cheap ones on 100,000 (where process start is about 5 %),
    // on one thread and two.
    let grid = ["--duration", "2", "--integrator", "rk4", "--dt", "\(1.0 / 600)"]
    measureSweep(
        "Sweep.kinema.20000springs.2threads",
        ["--stiffness", "100:1000:x200", "--damping-ratio", "0.1:1.0:x100", "--threads", "2"] + grid)
    for threads in [1, 2] {
        measureSweep(
            "Sweep.kinema.100000springs.3metrics.\(threads)thread\(threads > 1 ? "s" : "")",
            ["--stiffness", "100:1000:x400", "--damping-ratio", "0.1:1.0:x250", "--threads", "\(threads)"] + grid
                + ["--metrics", "settling_time,overshoot,final_error"])
    }

    // The same 100,000 rows' arithmetic in plain C on one thread (cbaseline_sweep_rows: eight
    // lanes of RK4 a step, the three metrics per sample, no text): the limit the binary is held to.
    let stiffnesses = (0..<400).map { 100 * pow(10, Double($0) / 399) }
    let ratios = (0..<250).map { 0.1 * pow(10, Double($0) / 249) }
    let k = stiffnesses.flatMap { k in ratios.map { _ in k } }
    let c = stiffnesses.flatMap { k in ratios.map { 2 * $0 * k.squareRoot() } }
    // On two threads, each half the rows (the first half a multiple of 8), as the binary's two.
    for threads in [1, 2] {
        Benchmark(
            "Sweep.C.100000springs.3metrics.\(threads)thread\(threads > 1 ? "s" : "")",
            configuration: .init(metrics: [.wallClock], maxDuration: .seconds(20), maxIterations: 10)
        ) { benchmark in
            nonisolated(unsafe) let out = UnsafeMutableBufferPointer<Double>.allocate(capacity: 3 * k.count)
            defer { out.deallocate() }
            let half = k.count / 2 / 8 * 8
            let parts = threads == 1 ? [0..<k.count] : [0..<half, half..<k.count]
            for _ in benchmark.scaledIterations {
                DispatchQueue.concurrentPerform(iterations: parts.count) { part in
                    let rows = parts[part]
                    k.withUnsafeBufferPointer { k in
                        c.withUnsafeBufferPointer { c in
                            cbaseline_sweep_rows(
                                k.baseAddress! + rows.lowerBound, c.baseAddress! + rows.lowerBound, rows.count,
                                1.0 / 600, 2, 60, out.baseAddress! + 3 * rows.lowerBound)
                        }
                    }
                }
            }
            blackHole(out[3 * k.count - 1])
        }
    }
}

/// `kinema sweep --spring` with `arguments`, its rows to /dev/null, once per iteration.
func measureSweep(_ name: String, _ arguments: [String]) {
    Benchmark(name, configuration: .init(metrics: [.wallClock], maxDuration: .seconds(20), maxIterations: 10)) {
        benchmark in
        let binary =
            ProcessInfo.processInfo.environment["KINEMA"]
            ?? FileManager.default.currentDirectoryPath + "/../.build/release/kinema"
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            fatalError(
                "\(binary) is missing: run 'swift build -c release --product kinema' first (make benchmarks does)")
        }
        for _ in benchmark.scaledIterations {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["sweep", "--spring"] + arguments
            process.standardOutput = FileHandle.nullDevice
            try! process.run()
            process.waitUntilExit()
            precondition(process.terminationStatus == 0, "kinema sweep failed")
        }
    }
}
