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

/// One executable target per fuzz target, at `Sources/Fuzz<Name>/Fuzz<Name>.swift`: an
/// `LLVMFuzzerTestOneInput` function and an `@main` that hands it to libFuzzer's driver (SwiftPM
/// renames an executable's entry point, so libFuzzer's own `main` cannot be used). Build and run
/// them with `scripts/fuzz` (it passes `-sanitize=fuzzer,address` and `-parse-as-library`); the
/// seed corpus of `Fuzz<Name>` is `Corpus/<Name>/`.
func fuzzTarget(_ name: String, dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: "Fuzz\(name)",
        dependencies: ["FuzzSupport"] + dependencies,
        swiftSettings: swiftSettings
    )
}

let authCore = Target.Dependency.product(name: "AuthCore", package: "AuthKit")
let httpTypes = Target.Dependency.product(name: "HTTPTypes", package: "swift-http-types")

let package = Package(
    name: "AuthKitFuzz",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "AuthKit", path: ".."),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    ],
    targets: [
        .target(name: "CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"], swiftSettings: swiftSettings),
        fuzzTarget("HTTPDate", dependencies: [authCore]),
        fuzzTarget("RequestTarget", dependencies: [authCore, httpTypes]),
        fuzzTarget("RetryAfter", dependencies: [authCore, httpTypes]),
        fuzzTarget("JWT", dependencies: [authCore, httpTypes]),
        fuzzTarget("TokenResponse", dependencies: [authCore, httpTypes]),
        fuzzTarget("SetCookie", dependencies: [.product(name: "AuthCookie", package: "AuthKit")]),
        fuzzTarget("CookieDate", dependencies: [authCore, .product(name: "AuthCookie", package: "AuthKit")]),
        fuzzTarget("OTPKeyURI", dependencies: [.product(name: "AuthMFA", package: "AuthKit")]),
        fuzzTarget("Base32", dependencies: [.product(name: "AuthMFA", package: "AuthKit")]),
        fuzzTarget("StructuredFields", dependencies: [.product(name: "AuthSigning", package: "AuthKit")]),
        fuzzTarget("MessageSignatureVerify", dependencies: [
            authCore, httpTypes,
            .product(name: "AuthSigning", package: "AuthKit"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        fuzzTarget("SQLiteRecord", dependencies: [
            authCore,
            .product(name: "AuthSQLiteStore", package: "AuthKit"),
            // The system SQLite that GRDB links: the target writes the row with the C API.
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
        ]),
        fuzzTarget("FileStoreRecord", dependencies: [authCore, .product(name: "AuthFileStore", package: "AuthKit")]),
    ]
)
