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
        // The local web app (Hummingbird): its own product, so `kinema` does not link a server.
        .executable(name: "kinema-studio", targets: ["kinema-studio"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.0.0"),
        // `swift package generate-documentation` for the DocC catalogs (`make docs`).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // Without the ConfigurationSupport trait: the studio reads its flags, not swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0")
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
            ]
        ),
        .executableTarget(name: "kinema", dependencies: ["KinemaCLI"]),
        .target(
            name: "KinemaStudio",
            dependencies: [
                "Kinema", "KinemaCLI", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]
        ),
        .executableTarget(
            name: "kinema-studio",
            dependencies: ["KinemaStudio", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(name: "KinemaTests", dependencies: ["Kinema"]),
        .testTarget(name: "KinemaReferenceTests", dependencies: ["KinemaReference", "Kinema"]),
        .testTarget(name: "KinemaCLITests", dependencies: ["KinemaCLI", "Kinema", "kinema"]),
        .testTarget(
            name: "KinemaStudioTests",
            dependencies: [
                "KinemaStudio", "KinemaCLI", "kinema", "kinema-studio",
                .product(name: "Hummingbird", package: "hummingbird")
            ]
        )
    ]
)
