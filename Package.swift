// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "ArchiveGate",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ArchiveGateCore", targets: ["ArchiveGateCore"]),
        .executable(name: "archivegate", targets: ["archivegate"]),
        .library(name: "ArchiveGateServer", targets: ["ArchiveGateServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // HTTP service (ArchiveGateServer).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // Plist reading, keyed-archive graph, policy evaluation and JSON rendering.
        // No server, store or network dependency: the CLI, server and benchmarks share it.
        .target(name: "ArchiveGateCore"),
        .executableTarget(
            name: "archivegate",
            dependencies: [
                "ArchiveGateCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "ArchiveGateServer",
            ]
        ),
        // The HTTP service: Hummingbird app, tenants, auth, limits, problem+json, metrics.
        .target(
            name: "ArchiveGateServer",
            dependencies: [
                "ArchiveGateCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            // The hand-written OpenAPI document, compiled into the binary (served at /openapi.yaml).
            resources: [.embedInCode("Resources/openapi.yaml")]
        ),
        .testTarget(name: "ArchiveGateCoreTests", dependencies: ["ArchiveGateCore"]),
        .testTarget(
            name: "ArchiveGateServerTests",
            dependencies: [
                "ArchiveGateServer",
                // Built so the graceful-shutdown test can spawn the real `archivegate serve`.
                // "archivegate", // TEMP
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ]
        ),
    ]
)
