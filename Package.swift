// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "ArchiveGate",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ArchiveGateCore", targets: ["ArchiveGateCore"]),
        .executable(name: "archivegate", targets: ["archivegate"]),
        // The HTTP service, a program of its own: `archivegate serve` execs it from archivegate's folder.
        .executable(name: "archivegate-server", targets: ["archivegate-server"]),
        .library(name: "ArchiveGateServer", targets: ["ArchiveGateServer"]),
        .executable(name: "archivegate-bench", targets: ["ArchiveGateBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // HTTP service (ArchiveGateServer).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Result store (ArchiveGateStore): SQLite, bundled with the package.
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.2"),
        // Shared result store for several replicas (ArchiveGateStore/Postgres).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // Plist reading, keyed-archive graph, policy evaluation and JSON rendering.
        // No server, store or network dependency: the CLI, server and benchmarks share it.
        .target(name: "ArchiveGateCore"),
        // The CLI. No server code: every call's start-up pays for what the binary links (the runtime
        // scans every protocol conformance record; ld.so relocates every pointer), and NIO,
        // Hummingbird and PostgresNIO made that most of a 1 KB validate's CPU (docs/BENCHMARKS.md,
        // "Start-up"). `archivegate serve` execs archivegate-server (ServerHandOver).
        .executableTarget(
            name: "archivegate",
            dependencies: [
                "ArchiveGateCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "ArchiveGateKeys",
                "ArchiveGateFetch",
                "ArchiveGateSQLiteRead",
            ]
        ),
        // `archivegate serve`: parses the server's flags and runs ArchiveGateServer.
        .executableTarget(
            name: "archivegate-server",
            dependencies: [
                "ArchiveGateServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // API key hashes (SHA-256) and their hex spelling: shared by the server's tenants and
        // `archivegate hash-key`, without the server.
        .target(name: "ArchiveGateKeys", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        // Read-only access to forensic SQLite databases for `archivegate scan-db`, over the system
        // SQLite (URI opens); it hides CSQLite3 from its clients, which also load sqlite-nio's SQLite.
        .target(name: "ArchiveGateSQLiteRead", dependencies: ["CSQLite3"]),
        // The system SQLite, for `archivegate scan-db` (read-only URI opens of forensic databases).
        .systemLibrary(name: "CSQLite3", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The HTTP service: Hummingbird app, tenants, auth, limits, problem+json, metrics.
        .target(
            name: "ArchiveGateServer",
            dependencies: [
                "ArchiveGateCore",
                "ArchiveGateKeys",
                "ArchiveGateFetch",
                "ArchiveGateStore",
                "ArchiveGateInflate",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                // HTTPConformanceHandler sits between NIO's HTTP/1 codec and its conversion to HTTP types.
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ],
            // The hand-written OpenAPI document (served at /openapi.yaml) and the inspector page's
            // files (served at / and /ui/…), compiled into the binary.
            resources: [
                .embedInCode("Resources/openapi.yaml"),
                .embedInCode("Resources/ui/index.html"),
                .embedInCode("Resources/ui/inspector.css"),
                .embedInCode("Resources/ui/inspector.js"),
                .embedInCode("Resources/ui/api.js"),
                .embedInCode("Resources/ui/dom.js"),
                .embedInCode("Resources/ui/report.js"),
                .embedInCode("Resources/ui/tree.js"),
                .embedInCode("Resources/ui/stored.js"),
                .embedInCode("Resources/ui/paths.js"),
                .embedInCode("Resources/ui/search.js"),
                .embedInCode("Resources/ui/dates.js"),
                .embedInCode("Resources/ui/tree-tools.js"),
                .embedInCode("Resources/ui/batch.js"),
                .embedInCode("Resources/ui/hex.js"),
                .embedInCode("Resources/ui/graph.js"),
                .embedInCode("Resources/ui/favicon.svg"),
            ]
        ),
        // Streaming gzip inflation under an output cap (request bodies); no server dependency, so
        // FuzzGzipArchive fuzzes this very module.
        .target(
            name: "ArchiveGateInflate",
            dependencies: [
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // Release benchmark: ours vs Foundation's NSKeyedUnarchiver on the same bytes (scripts/bench).
        .executableTarget(name: "ArchiveGateBench", dependencies: ["ArchiveGateCore", "ArchiveGateSeededRandom"], path: "Sources/ArchiveGateBench"),
        // SplitMix64, the seeded generator behind every generated input (benchmark archives, the
        // oracle's graphs, test fixtures): one algorithm, so a seed means the same everywhere.
        .target(name: "ArchiveGateSeededRandom"),
        // libcurl (system library + typed wrappers for its variadic calls) and the SSRF-safe fetcher.
        // No pkgConfig: it would add `-lcurl`; libcurl is dlopen'ed on the first fetch (CCurl.h). The
        // headers (libcurl4-openssl-dev) are in the default include path.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "ArchiveGateFetch", dependencies: ["CCurl"]),
        // The loopback HTTP origin the fetch, server and CLI tests share, and `offCooperativePool`.
        .target(name: "ArchiveGateTestSupport", path: "Tests/ArchiveGateTestSupport"),
        .testTarget(name: "ArchiveGateFetchTests", dependencies: ["ArchiveGateFetch", "ArchiveGateTestSupport"]),
        // Stored results behind the `ResultStore` protocol; SQLite (WAL, synchronous=FULL) is the embedded default.
        .target(
            name: "ArchiveGateStore",
            dependencies: [
                "ArchiveGateCore",
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // One conformance suite for both stores; the PostgreSQL half needs scripts/postgres-test-server.
        .testTarget(
            name: "ArchiveGateStoreTests",
            dependencies: [
                "ArchiveGateStore",
                "ArchiveGateTestSupport",
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // Regressions/Inputs: fuzz-found inputs read by FuzzRegressionTests (data, not sources).
        .testTarget(name: "ArchiveGateCoreTests", dependencies: ["ArchiveGateCore", "ArchiveGateSeededRandom", "ArchiveGateTestSupport"], exclude: ["Regressions/Inputs"]),
        // Runs the real `archivegate` binary, and archivegate-server through `archivegate serve`
        // (dependencies so that building the tests builds them).
        .testTarget(name: "ArchiveGateCLITests", dependencies: ["ArchiveGateCore", "archivegate", "archivegate-server", "ArchiveGateTestSupport", "CSQLite3"]),
        .testTarget(
            name: "ArchiveGateServerTests",
            dependencies: [
                "ArchiveGateServer",
                "ArchiveGateKeys",
                "ArchiveGateStore",
                // Built so the graceful-shutdown and replica tests can spawn the real `archivegate serve`
                // (which execs archivegate-server).
                "archivegate",
                "archivegate-server",
                "ArchiveGateTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ]
        ),
        // libFuzzer targets (scripts/fuzz; docs/RELIABILITY.md). Built for fuzzing only with
        // `swift build -c release --sanitize fuzzer --sanitize address --product FuzzX`; a plain build
        // links them as programs that do nothing. FuzzGzipArchive fuzzes ArchiveGateInflate, the server's inflater.
        .target(name: "ArchiveGateFuzzSupport", dependencies: ["ArchiveGateCore"], path: "Fuzz/Support"),
        .executableTarget(name: "FuzzBinaryPlist", dependencies: ["ArchiveGateFuzzSupport"], path: "Fuzz/FuzzBinaryPlist"),
        .executableTarget(name: "FuzzXMLPlist", dependencies: ["ArchiveGateFuzzSupport"], path: "Fuzz/FuzzXMLPlist"),
        .executableTarget(name: "FuzzArchive", dependencies: ["ArchiveGateFuzzSupport"], path: "Fuzz/FuzzArchive"),
        // Encode (typed JSON → archive → typed JSON) and sanitize (idempotent, validates cleanly).
        .executableTarget(name: "FuzzWrite", dependencies: ["ArchiveGateFuzzSupport"], path: "Fuzz/FuzzWrite"),
        .executableTarget(name: "FuzzTypedStream", dependencies: ["ArchiveGateFuzzSupport"], path: "Fuzz/FuzzTypedStream"),
        .executableTarget(
            name: "FuzzGzipArchive",
            dependencies: [
                "ArchiveGateFuzzSupport",
                "ArchiveGateInflate",
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Fuzz/FuzzGzipArchive"
        ),
        // Differential oracle against Foundation's NSKeyedUnarchiver (scripts/differential; docs/RELIABILITY.md).
        // `--worker` is the Foundation side, run as a child process because corelibs traps on bad input.
        .executableTarget(name: "ArchiveGateOracle", dependencies: ["ArchiveGateCore", "ArchiveGateSeededRandom"], path: "Sources/ArchiveGateOracle"),
        // Not a fuzz target: dumps what the reader reads, for scripts/fuzz-differential (vs Python's plistlib).
        .executableTarget(name: "FuzzPlistDump", dependencies: ["ArchiveGateCore"], path: "Fuzz/FuzzPlistDump"),
    ]
)
