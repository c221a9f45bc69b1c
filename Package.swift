// swift-tools-version:6.2
// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import PackageDescription

/// One list of settings for every target: Swift 6 mode plus the upcoming features that keep
/// imports and existentials explicit.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "AuthKit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "AuthCore", targets: ["AuthCore"]),
        .library(name: "AuthHTTPClient", targets: ["AuthHTTPClient"]),
        .library(name: "AuthTesting", targets: ["AuthTesting"]),
        .library(name: "AuthSQLiteStore", targets: ["AuthSQLiteStore"]),
        .library(name: "AuthFileStore", targets: ["AuthFileStore"]),
        .library(name: "AuthCookie", targets: ["AuthCookie"]),
        .library(name: "AuthMFA", targets: ["AuthMFA"]),
        .library(name: "AuthSigning", targets: ["AuthSigning"]),
        .library(name: "AuthMigration", targets: ["AuthMigration"]),
        .library(name: "AuthCache", targets: ["AuthCache"]),
        .library(name: "AuthOAuth2", targets: ["AuthOAuth2"]),
        .library(name: "AuthPostgresStore", targets: ["AuthPostgresStore"]),
        .library(name: "AuthObservation", targets: ["AuthObservation"]),
        .library(name: "AuthTelemetry", targets: ["AuthTelemetry"]),
        .library(name: "AuthURLSession", targets: ["AuthURLSession"]),
        .library(name: "AuthOpenAPI", targets: ["AuthOpenAPI"]),
        .library(name: "AuthKeyring", targets: ["AuthKeyring"]),
        .library(name: "AuthTestServer", targets: ["AuthTestServer"]),
        .library(name: "AuthTestServerAPI", targets: ["AuthTestServerAPI"]),
        .executable(name: "auth-demo", targets: ["AuthDemo"]),
    ],
    // The heavy optional parts, each behind a trait; all are on by default, so `swift build` here
    // builds everything. A product dependency that only a trait's modules need carries
    // `condition: .when(traits: [...])`, and SwiftPM does not resolve a package whose every use
    // is guarded by a trait that is off: a consumer naming only the traits it uses (`traits: []`
    // for none) fetches none of the others' packages. README "Package traits" lists them.
    traits: [
        .trait(name: "PostgreSQL", description: "AuthPostgresStore (postgres-nio)"),
        .trait(name: "OAuth2", description: "AuthOAuth2 (jwt-kit)"),
        .trait(name: "OpenAPI", description: "AuthOpenAPI and AuthTestServerAPI (swift-openapi-runtime)"),
        .trait(name: "Telemetry", description: "AuthTelemetry (swift-metrics)"),
        .trait(name: "TestServer", description: "AuthTestServer (Hummingbird, hummingbird-auth, jwt-kit)"),
        .trait(
            name: "Demo",
            description: "the auth-demo executable (swift-argument-parser) and the parts it shows",
            enabledTraits: ["PostgreSQL", "OAuth2", "OpenAPI", "TestServer"]
        ),
        .default(enabledTraits: ["PostgreSQL", "OAuth2", "OpenAPI", "Telemetry", "TestServer", "Demo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-http-structured-headers.git", from: "1.7.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        // `swift package generate-documentation` (scripts/docs); a plugin, built only when run.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
        // Certificates the TLS tests make (pinning, mutual TLS); a test-only dependency.
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
    ],
    targets: [
        .target(
            name: "AuthCore",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AuthHTTPClient",
            dependencies: [
                "AuthCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // NIOConnectionError and IOError, to tell connection failures apart by type.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // The response decoder's parts, which a connection's stall bound counts.
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // Response bodies as Data without a copy where NIO can hand the bytes over.
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                // To tell a tracer that does nothing from one that records (NoOpTracer).
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                // The server certificate that pinning checks; client certificates of mutual TLS.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AuthTesting",
            dependencies: ["AuthCore", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // A transport over URLSession (FoundationNetworking on Linux).
        .target(
            name: "AuthURLSession",
            dependencies: ["AuthCore", .product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: swiftSettings
        ),
        // Metrics and spans (swift-metrics, swift-distributed-tracing), outside AuthCore.
        .target(
            name: "AuthTelemetry",
            dependencies: [
                "AuthCore",
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["Telemetry"])),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // Adapters for clients generated by swift-openapi-generator: a ClientTransport and a
        // ClientMiddleware that run AuthKit's pipeline.
        .target(
            name: "AuthOpenAPI",
            dependencies: [
                "AuthCore",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: .when(traits: ["OpenAPI"])),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        // The client of AuthTestServer's API, generated from openapi.yaml and committed
        // (scripts/generate-openapi), used by the AuthOpenAPI tests and auth-demo.
        .target(
            name: "AuthTestServerAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: .when(traits: ["OpenAPI"])),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi.yaml", "openapi-generator-config.yaml"],
            swiftSettings: swiftSettings
        ),
        // An @Observable model of an account's state (Observation ships with the toolchain).
        .target(
            name: "AuthObservation",
            dependencies: ["AuthCore"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AuthSQLiteStore",
            dependencies: [
                "AuthCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The system libsqlite3 GRDB links, for the store's direct read path.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AuthFileStore",
            dependencies: ["AuthCore", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AuthCookie",
            dependencies: ["AuthCore", .product(name: "HTTPTypes", package: "swift-http-types")],
            // The Mozilla Public Suffix List, verbatim; scripts/update-public-suffix-list refreshes it.
            resources: [.copy("Resources/public_suffix_list.dat")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AuthMFA",
            dependencies: ["AuthCore", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AuthSigning",
            dependencies: [
                "AuthCore",
                .product(name: "Crypto", package: "swift-crypto"),
                // RSA (rsa-pss-sha512, rsa-v1_5-sha256) for RFC 9421.
                .product(name: "CryptoExtras", package: "swift-crypto"),
                // The RFC 8941 parser under RFC 9421's Signature-Input and Signature fields.
                .product(name: "RawStructuredFieldValues", package: "swift-http-structured-headers"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AuthCache",
            dependencies: ["AuthCore", .product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AuthOAuth2",
            dependencies: [
                "AuthCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // JOSE: ID tokens and their JWKS, private_key_jwt client assertions.
                .product(name: "JWTKit", package: "jwt-kit", condition: .when(traits: ["OAuth2"])),
                // The loopback redirect listener of command-line sign-ins (RFC 8252 §7.3).
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AuthPostgresStore",
            dependencies: [
                "AuthCore",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AuthMigration",
            dependencies: ["AuthCore"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "migration-helper",
            dependencies: ["AuthMigration", "AuthCore", "AuthFileStore", "AuthSQLiteStore"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AuthTestServer",
            dependencies: [
                "AuthMFA", "AuthSigning",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["TestServer"])),
                // ES256 ID tokens of the OAuth 2.0 provider.
                .product(name: "JWTKit", package: "jwt-kit", condition: .when(traits: ["TestServer"])),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["TestServer"])),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth", condition: .when(traits: ["TestServer"])),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["TestServer"])),
            ],
            swiftSettings: swiftSettings
        ),
        // The OS keyring: the Secret Service over D-Bus (a pure-Swift client of the session bus).
        .target(
            name: "AuthKeyring",
            dependencies: ["AuthCore", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "AuthDemo",
            dependencies: [
                "AuthCore", "AuthHTTPClient", "AuthSQLiteStore", "AuthFileStore", "AuthCookie", "AuthMFA", "AuthSigning", "AuthMigration", "AuthCache", "AuthOAuth2", "AuthPostgresStore", "AuthTestServer",
                "AuthOpenAPI", "AuthTestServerAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Demo"])),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "auth-store-worker",
            dependencies: ["AuthCore", "AuthHTTPClient", "AuthSQLiteStore", "AuthFileStore", "AuthMFA", "AuthOAuth2", "AuthPostgresStore", .product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: swiftSettings
        ),
        // Helper processes that the store tests launch to prove cross-process behaviour.
        .executableTarget(
            name: "sqlite-store-helper",
            dependencies: ["AuthSQLiteStore", "AuthCore"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "keyring-helper",
            dependencies: ["AuthKeyring", "AuthSQLiteStore", "AuthCore"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "AuthFileStoreTestHelper",
            dependencies: ["AuthFileStore", "AuthCore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AuthCoreTests",
            dependencies: [
                "AuthCore", "AuthTesting",
                // The OAuth 2.0 refresher, the real refresher of the renewal tests against AuthTestServer.
                "AuthOAuth2",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AuthHTTPClientTests",
            dependencies: [
                "AuthURLSession",
                "AuthCore", "AuthHTTPClient", "AuthOAuth2",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AuthOpenAPITests",
            dependencies: [
                "AuthOpenAPI", "AuthTestServerAPI", "AuthCore", "AuthHTTPClient", "AuthOAuth2", "AuthSigning", "AuthTestServer", "AuthTesting",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                // The standard OpenAPI transport over AsyncHTTPClient, after the middleware adapter.
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AuthSQLiteStoreTests",
            dependencies: [
                "AuthSQLiteStore", "AuthCore", "AuthTesting", "sqlite-store-helper",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AuthFileStoreTests",
            dependencies: ["AuthFileStore", "AuthCore", "AuthTesting", "AuthFileStoreTestHelper"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AuthCookieTests",
            dependencies: ["AuthCookie", "AuthCore", "AuthTesting", .product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AuthOAuth2Tests",
            dependencies: ["AuthOAuth2", "AuthCore", "AuthTesting", .product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AuthTelemetryTests",
            dependencies: [
                "AuthTelemetry", "AuthCore", "AuthTestServer", "AuthHTTPClient", "AuthOAuth2", "AuthTesting", "AuthCache",
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AuthPostgresStoreTests",
            dependencies: [
                "AuthPostgresStore", "AuthCore", "AuthCache", "AuthOAuth2", "AuthTesting", "AuthTestServer", "AuthHTTPClient", "auth-store-worker",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AuthMFATests",
            dependencies: ["AuthMFA", "AuthCore", "AuthTesting", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AuthSigningTests",
            dependencies: [
                "AuthSigning", "AuthCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AuthTestServerTests",
            dependencies: [
                "AuthTestServer",
                "AuthTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "AuthCore", "AuthHTTPClient", "AuthTestServer", "AuthTesting", "AuthSQLiteStore", "AuthFileStore",
                "AuthCookie", "AuthMFA", "AuthSigning", "AuthCache", "AuthMigration", "AuthOAuth2", "AuthPostgresStore", "AuthObservation", "AuthURLSession", "auth-store-worker", "AuthDemo",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // TLS servers of the pinning and mutual-TLS tests, and their certificates; the
                // client's trust roots (AsyncHTTPClient's configuration).
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: swiftSettings
        ),
        // The examples of the doc comments, compiled (scripts/doc-snippets writes them).
        .testTarget(
            name: "DocSnippetTests",
            dependencies: [
                "AuthKeyring",
                "AuthCore", "AuthHTTPClient", "AuthTestServer", "AuthTesting", "AuthSQLiteStore", "AuthFileStore",
                "AuthCookie", "AuthMFA", "AuthSigning", "AuthCache", "AuthMigration", "AuthOAuth2", "AuthPostgresStore", "AuthObservation", "AuthTelemetry", "AuthURLSession",
                "AuthOpenAPI", "AuthTestServerAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AuthKeyringTests",
            dependencies: ["AuthKeyring", "AuthCore", "AuthTesting", "keyring-helper"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AuthMigrationTests",
            dependencies: ["AuthMigration", "AuthCore", "AuthTesting", "AuthFileStore", "AuthSQLiteStore", "migration-helper"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AuthCacheTests",
            dependencies: [
                "AuthCache", "AuthCore", "AuthTesting", "AuthHTTPClient", "AuthTestServer",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
