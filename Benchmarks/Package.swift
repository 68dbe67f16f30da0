// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so `swift test` at the top stays fast and free of the
// benchmark harness. Run: cd Benchmarks && swift package benchmark
let package = Package(
    name: "KinemaBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Kinema", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"])
    ],
    targets: [
        // Plain C: a hand-written RK4 and GSL's rk4 with a C right-hand side, the limits Kinema is
        // measured against in the same run.
        .target(
            name: "CBaseline",
            path: "Sources/CBaseline",
            linkerSettings: [.linkedLibrary("gsl"), .linkedLibrary("gslcblas"), .linkedLibrary("m")]
        ),
        // Boost.Odeint (Debian libboost-dev, headers only) on the spring chain, at -O2.
        .target(
            name: "OdeintBaseline",
            path: "Sources/OdeintBaseline",
            cxxSettings: [.unsafeFlags(["-O2"])]
        ),
        // ns per body-step on the spring chain from 1 to 10,000 bodies, Kinema next to odeint; 1,000
        // spheres in a box against the clock.
        .executableTarget(
            name: "SceneScaling",
            dependencies: ["OdeintBaseline", .product(name: "Kinema", package: "Kinema")],
            path: "Sources/SceneScaling",
            swiftSettings: [.swiftLanguageMode(.v5)]  // a script-like main: closures passed from top-level code
        ),
        // Work at matched accuracy on the work-precision spring: Kinema, odeint and GSL (C
        // right-hand side), each side's cheapest run reaching 1e-6, 1e-9 and 1e-12.
        .executableTarget(
            name: "WorkPrecision",
            dependencies: ["CBaseline", "OdeintBaseline", .product(name: "Kinema", package: "Kinema")],
            path: "Sources/WorkPrecision",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // Whole one-body runs, µs per run, for comparing two builds of Kinema.
        .executableTarget(
            name: "RunProfile",
            dependencies: [.product(name: "Kinema", package: "Kinema")],
            path: "Sources/RunProfile",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "Integrators",
            dependencies: [
                "CBaseline",
                .product(name: "Kinema", package: "Kinema"),
                .product(name: "Benchmark", package: "benchmark")
            ],
            path: "Benchmarks/Integrators",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ]
)
