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
        .executableTarget(
            name: "Integrators",
            dependencies: [
                .product(name: "Kinema", package: "Kinema"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Integrators",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
