// swift-tools-version:6.2
// 6.2 is the Swift of Xcode 26, the Xcode that App Store submissions need
// since April 2026; nothing here needs a newer manifest API.
import PackageDescription

// The client package: what an app adds. It names only swift-log and
// swift-crypto, so an app that depends on this repository resolves nothing
// of the server's (Hummingbird, NIO, SQLite, PostgreSQL). The server, the
// CLI, the chaos simulation, the fault proxy and the benchmarks live in the
// package in Server/, which depends on this one by path.

// One shared set of settings, as Hummingbird does: Swift 6 strict concurrency
// is the language mode; these upcoming features keep dependencies explicit.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "SessionKit",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "SessionCore", targets: ["SessionCore"]),
        .library(name: "SessionKit", targets: ["SessionKit"]),
        .library(name: "SessionKitTesting", targets: ["SessionKitTesting"]),
    ],
    // Planted client defects for the chaos harness (`reliability --sabotage`).
    // Off by default: an app's build never compiles them; only the Server
    // package (the harness and its tests) turns the trait on.
    traits: [.trait(name: "Sabotage", description: "Planted client defects the chaos harness must catch. Never for apps.")],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        // Wire types both halves share; Foundation only.
        .target(name: "SessionCore", swiftSettings: swiftSettings),
        .target(
            name: "SessionKit",
            dependencies: [
                "SessionCore",
                .product(name: "Logging", package: "swift-log"),
                // CryptoKit exists on Apple platforms; elsewhere swift-crypto stands in.
                .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: [.linux, .windows, .android])),
            ],
            // The privacy manifest Xcode merges into an app's privacy report (required-reason APIs: UserDefaults).
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SessionKitTesting",
            dependencies: ["SessionKit", "SessionCore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "SessionCoreTests", dependencies: ["SessionCore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "SessionKitTests",
            dependencies: ["SessionKit", "SessionKitTesting", "SessionCore"],
            swiftSettings: swiftSettings
        ),
    ]
)

// Documentation (scripts/docs.sh): swift-docc-plugin only when asked for, so
// an app that adds this package never resolves it.
if Context.environment["SESSIONKIT_DOCC"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
