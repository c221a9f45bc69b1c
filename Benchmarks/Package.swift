// swift-tools-version:6.1
// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import PackageDescription

/// The root package's settings list, applied to every target here too.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// One executable target per benchmark suite, at `Benchmarks/<Name>/<Name>.swift`, run by the
/// package-benchmark plugin: `swift package --allow-writing-to-package-directory benchmark`.
func benchmarkTarget(_ name: String, dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.product(name: "Benchmark", package: "benchmark"), "BenchmarkSupport"] + dependencies,
        path: "Benchmarks/\(name)",
        swiftSettings: swiftSettings,
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

let package = Package(
    name: "AuthKitBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        // Only the malloc interposer: listing the traits turns off the default "RuntimeInterposer"
        // trait, whose package (swift-runtime-interposer) Linux with Swift 6.3 would otherwise need.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(name: "AuthKit", path: ".."),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "AuthCore", package: "AuthKit"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "EndToEndSupport",
            dependencies: [
                .product(name: "AuthCore", package: "AuthKit"),
                .product(name: "AuthHTTPClient", package: "AuthKit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The generated clients the OpenAPI suite and openapi-driver compare.
        .target(
            name: "OpenAPISupport",
            dependencies: [
                .product(name: "AuthCore", package: "AuthKit"),
                .product(name: "AuthOpenAPI", package: "AuthKit"),
                .product(name: "AuthTestServerAPI", package: "AuthKit"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        // What scripts/callgrind-openapi runs under valgrind (see its main.swift).
        .executableTarget(
            name: "openapi-driver",
            dependencies: ["OpenAPISupport", .product(name: "AuthTestServerAPI", package: "AuthKit")],
            swiftSettings: swiftSettings
        ),
        // What scripts/callgrind-e2e runs under valgrind (see its main.swift).
        .executableTarget(
            name: "e2e-driver",
            dependencies: [
                "EndToEndSupport",
                .product(name: "AuthCore", package: "AuthKit"),
                .product(name: "AuthHTTPClient", package: "AuthKit"),
                .product(name: "AuthSQLiteStore", package: "AuthKit"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // What callgrind runs for the ID token rows of the README (see its main.swift).
        .executableTarget(
            name: "idtoken-driver",
            dependencies: [
                .product(name: "AuthCore", package: "AuthKit"),
                .product(name: "AuthOAuth2", package: "AuthKit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: swiftSettings
        ),
        benchmarkTarget("EndToEnd", dependencies: [
            "EndToEndSupport",
            .product(name: "AuthCore", package: "AuthKit"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
        ]),
        benchmarkTarget("Pipeline", dependencies: [
            .product(name: "AuthCore", package: "AuthKit"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        benchmarkTarget("SQLiteStore", dependencies: [
            .product(name: "AuthCore", package: "AuthKit"),
            .product(name: "AuthSQLiteStore", package: "AuthKit"),
            // The system SQLite that GRDB links, for the raw C API baseline, and GRDB itself for
            // the diagnostics that split the store's cost.
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        benchmarkTarget("FileStore", dependencies: [
            .product(name: "AuthCore", package: "AuthKit"),
            .product(name: "AuthFileStore", package: "AuthKit"),
            .product(name: "AuthSQLiteStore", package: "AuthKit"),
        ]),
        benchmarkTarget("Cache", dependencies: [
            .product(name: "AuthCore", package: "AuthKit"),
            .product(name: "AuthCache", package: "AuthKit"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),
        benchmarkTarget("CookieJar", dependencies: [
            .product(name: "AuthCookie", package: "AuthKit"),
        ]),
        benchmarkTarget("TOTP", dependencies: [
            .product(name: "AuthMFA", package: "AuthKit"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        benchmarkTarget("Telemetry", dependencies: [
            .product(name: "AuthCore", package: "AuthKit"),
            .product(name: "AuthTelemetry", package: "AuthKit"),
            .product(name: "CoreMetrics", package: "swift-metrics"),
            .product(name: "Tracing", package: "swift-distributed-tracing"),
        ]),
        benchmarkTarget("OpenAPI", dependencies: ["OpenAPISupport", .product(name: "AuthTestServerAPI", package: "AuthKit")]),
        benchmarkTarget("PostgresStore", dependencies: [
            .product(name: "AuthCore", package: "AuthKit"),
            .product(name: "AuthHTTPClient", package: "AuthKit"),
            .product(name: "AuthOAuth2", package: "AuthKit"),
            .product(name: "AuthPostgresStore", package: "AuthKit"),
            .product(name: "AuthTestServer", package: "AuthKit"),
            .product(name: "AuthTesting", package: "AuthKit"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
        ]),
        benchmarkTarget("OAuth2", dependencies: [
            .product(name: "AuthCore", package: "AuthKit"),
            .product(name: "AuthOAuth2", package: "AuthKit"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
            .product(name: "JWTKit", package: "jwt-kit"),
        ]),
        benchmarkTarget("Signing", dependencies: [
            .product(name: "AuthCore", package: "AuthKit"),
            .product(name: "AuthSigning", package: "AuthKit"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),
    ]
)
