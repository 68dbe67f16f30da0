// swift-tools-version: 6.1
import PackageDescription

// kinema-studio, the local web app, lives in its own package so that an app depending on Kinema
// resolves none of its server stack (Hummingbird, SwiftNIO and what they bring). Run: make studio.
let package = Package(
    name: "KinemaStudio",
    platforms: [.macOS(.v14)],
    products: [.executable(name: "kinema-studio", targets: ["kinema-studio"])],
    dependencies: [
        .package(name: "Kinema", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Without the ConfigurationSupport trait: the studio reads its flags, not swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0")
    ],
    targets: [
        .target(
            name: "KinemaStudio",
            dependencies: [
                .product(name: "Kinema", package: "Kinema"), .product(name: "KinemaCLI", package: "Kinema"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ],
            // The page, as files a browser and an editor read (served from the binary).
            resources: [
                .embedInCode("Resources/index.html"), .embedInCode("Resources/studio.js"),
                .embedInCode("Resources/studio.css"), .embedInCode("Resources/playground.js")
            ]
        ),
        .executableTarget(
            name: "kinema-studio",
            dependencies: ["KinemaStudio", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The API against `kinema keyframes`' bytes: the kinema binary is built beside the tests.
        .testTarget(
            name: "KinemaStudioTests",
            dependencies: [
                "KinemaStudio", "kinema-studio", .product(name: "KinemaCLI", package: "Kinema"),
                .product(name: "kinema", package: "Kinema"), .product(name: "Hummingbird", package: "hummingbird")
            ]
        )
    ]
)
