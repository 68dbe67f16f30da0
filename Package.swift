// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Kinema",
    // The oldest systems apps ship on today; `scripts/check-platforms.py` (run by `make test`) keeps
    // the library free of standard-library API newer than these outside `@available`.
    platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        // Pure Swift and GSL-free, so it can ship inside any app (see README, "Licensing").
        .library(name: "Kinema", targets: ["Kinema"]),
        // Links GSL (GPL-3.0): the reference solver for tests, benchmarks and `kinema verify`.
        .library(name: "KinemaReference", targets: ["KinemaReference"]),
        .executable(name: "kinema", targets: ["kinema"]),
        // The command line's commands as a library, for kinema-studio (Studio/, a package of its own
        // so that an app depending on Kinema resolves no server stack); outside the API promise.
        .library(name: "KinemaCLI", targets: ["KinemaCLI"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.0.0"),
        // `swift package generate-documentation` for the DocC catalogs (`make docs`).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0")
    ],
    targets: [
        .target(
            name: "Kinema",
            dependencies: [
                .product(name: "RealModule", package: "swift-numerics"),
                .product(name: "ComplexModule", package: "swift-numerics")
            ]
        ),
        // GSL behind a system-library target: its shim exposes GSL's global step types through
        // `static inline` functions, which Swift 6 accepts where it rejects the globals.
        .systemLibrary(
            name: "CGSL",
            path: "Sources/CGSL",
            pkgConfig: "gsl",
            providers: [.apt(["libgsl-dev"])]
        ),
        .target(name: "KinemaReference", dependencies: ["Kinema", "CGSL"]),
        .target(
            name: "KinemaCLI",
            dependencies: [
                "Kinema",
                "KinemaReference",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ],
            // The browser module `--retargetable` writes and the studio serves, compiled in (no
            // bundle beside the binary); its TypeScript declarations sit beside it.
            exclude: ["Resources/kinema-spring.d.ts"],
            resources: [.embedInCode("Resources/kinema-spring.js")]
        ),
        .executableTarget(name: "kinema", dependencies: ["KinemaCLI"]),
        // What the test targets share (seeded randomness, grids, the package's files).
        .target(name: "KinemaTestSupport", path: "Tests/KinemaTestSupport"),
        .testTarget(name: "KinemaTests", dependencies: ["Kinema", "KinemaTestSupport"]),
        // The programs the documentation shows, written against what `import Kinema` gives an app
        // (no @testable, no SPI): a card grabbed mid-flight, a ball scene live and batch, bakes
        // exported to every format, mistakes on purpose, and every snippet of every article.
        .testTarget(
            name: "KinemaDocumentationTests", dependencies: ["Kinema", "KinemaTestSupport"],
            // As an app sees the library: `package` declarations are out of its reach.
            packageAccess: false
        ),
        .testTarget(name: "KinemaReferenceTests", dependencies: ["KinemaReference", "Kinema"]),
        .testTarget(name: "KinemaCLITests", dependencies: ["KinemaCLI", "Kinema", "kinema"])
    ]
)
