// swift-tools-version:6.2
import PackageDescription

// The server side of SessionKit: the auth server, the CLI, the chaos
// simulation, the fault proxy, the benchmarks and every test that needs
// them. It depends on the client package (the repository root) by path, so
// an app that adds the root never resolves Hummingbird, NIO or the databases.

// One shared set of settings, as Hummingbird does: Swift 6 strict concurrency
// is the language mode; these upcoming features keep dependencies explicit.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// The client package's products, by the names its targets had when both
// halves were one package.
let sessionCore: Target.Dependency = .product(name: "SessionCore", package: "SessionKit")
let sessionKit: Target.Dependency = .product(name: "SessionKit", package: "SessionKit")
let sessionKitTesting: Target.Dependency = .product(name: "SessionKitTesting", package: "SessionKit")

let package = Package(
    name: "SessionKitServer",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "SessionKitFaultProxy", targets: ["SessionKitFaultProxy"]),
        .library(name: "SessionServer", targets: ["SessionServer"]),
        .executable(name: "auth-server", targets: ["auth-server"]),
        .executable(name: "sessionctl", targets: ["sessionctl"]),
        .executable(name: "reliability", targets: ["reliability"]),
    ],
    dependencies: [
        // The client package at the repository root.
        // With the planted defects of the chaos harness compiled in (inert unless a test turns one on).
        .package(name: "SessionKit", path: "..", traits: ["Sabotage"]),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // Server side.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        // Only the benchmarks use jwt-kit: they measure its ES256 beside the server's
        // own (Sources/SessionServer/Tokens/AccessTokenVerifier.swift says why the server keeps its own).
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // Test support: the fault-injecting proxy (already in the graph through Hummingbird).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // The request parts' type (`HTTPRequestPart`) for the read timeout (already in the graph through Hummingbird).
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        // The admin console's and account page's templates.
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        // STARTTLS and implicit TLS for the SMTP client (already in the graph through PostgresNIO).
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    ],
    targets: [
        .target(
            name: "SessionServer",
            dependencies: [
                sessionCore,
                .product(name: "Hummingbird", package: "hummingbird"),
                // HTTP1Channel's configuration and the connection cap (idle and request timeouts).
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                // RSA, for verifying Apple's ID tokens (RS256).
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                // `HTTPRequestPart`'s cases, for the read timeout (Network/RequestReadTimeoutHandler.swift).
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "auth-server",
            dependencies: [
                "SessionServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "sessionctl",
            dependencies: [
                sessionKit,
                sessionCore,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // A helper process for ProcessTests (kill -9, many processes on one store); not a product.
        .executableTarget(
            name: "store-probe",
            dependencies: [
                sessionKit, sessionCore,
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/StoreProbe",
            swiftSettings: swiftSettings
        ),
        // Benchmarks (issue 7): not tests; run with `Benchmarks/run`.
        .executableTarget(
            name: "benchmarks",
            dependencies: [
                sessionKit, sessionKitTesting, "SessionServer", sessionCore, "SessionSimulation",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                // RSA, for verifying Apple's ID tokens (RS256).
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Benchmarks/Sources/benchmarks",
            swiftSettings: swiftSettings
        ),
        // A fault-injecting HTTP proxy for tests (a test-support library: never embedded in apps).
        .target(
            name: "SessionKitFaultProxy",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The chaos simulation (a test-support library: never embedded in apps) and its runner.
        .target(
            name: "SessionSimulation",
            dependencies: [
                sessionKit, sessionKitTesting, "SessionServer", sessionCore, "SessionKitFaultProxy",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "reliability",
            dependencies: ["SessionSimulation", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),
        // Child processes for the tests that run built executables (test support only; Foundation only).
        .target(name: "ProcessTesting", path: "Tests/Support/ProcessTesting", swiftSettings: swiftSettings),
        .testTarget(
            name: "SessionServerTests",
            dependencies: [
                "SessionServer", sessionCore, sessionKitTesting, "ProcessTesting",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // The read timeout's handler on a channel with a clock the test advances.
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                // SQLiteKit's own rows, which the store's SQLite rows must read alike (SQLiteStoreRowTests).
                .product(name: "SQLiteKit", package: "sqlite-kit"),
            ],
            swiftSettings: swiftSettings
        ),
        // Runs the built `sessionctl` and `auth-server` binaries as subprocesses.
        .testTarget(
            name: "SessionCtlTests",
            dependencies: [sessionCore, sessionKit, "ProcessTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                sessionKit, sessionKitTesting, "SessionServer", sessionCore, "SessionSimulation",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ProcessTests",
            dependencies: [sessionKit, sessionCore, "ProcessTesting", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FaultProxyTests",
            dependencies: [
                "SessionKitFaultProxy", "SessionServer", sessionKit, sessionKitTesting, sessionCore,
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "SessionSimulation", "SessionServer", sessionKit, sessionKitTesting, sessionCore,
                "SessionKitFaultProxy", "ProcessTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
