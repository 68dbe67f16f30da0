// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so `swift test` at the top stays fast and free of the
// benchmark harness. Run: cd Benchmarks && swift package benchmark
let package = Package(
    name: "KinemaBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Kinema", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Plain C: a hand-written RK4 and GSL's rk4 with a C right-hand side, the limits Kinema is
        // measured against in the same run.
        .target(
            name: "CBaseline",
            path: "Sources/CBaseline",
            linkerSettings: [.linkedLibrary("gsl"), .linkedLibrary("gslcblas"), .linkedLibrary("m")]
        ),
        .executableTarget(
            name: "Integrators",
            dependencies: [
                "CBaseline",
                .product(name: "Kinema", package: "Kinema"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Integrators",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
