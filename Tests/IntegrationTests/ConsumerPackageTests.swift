// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// The `swift` driver on `PATH` (`swift test` runs with the toolchain's on it).
private let swiftDriver: URL? = (ProcessInfo.processInfo.environment["PATH"] ?? "")
    .split(separator: ":")
    .map { URL(fileURLWithPath: String($0)).appendingPathComponent("swift") }
    .first { FileManager.default.isExecutableFile(atPath: $0.path) }

/// Issue 53: a package that used AuthCore, AuthHTTPClient and AuthSQLiteStore resolved 31
/// packages, among them hummingbird, jwt-kit, postgres-nio and swift-openapi-runtime, which it
/// never built. The heavy optional parts are now behind package traits (README "Package traits"),
/// and a consumer that names none of them resolves none of their packages.
///
/// The consumer is written into a temporary folder and depends on this checkout by path, as a
/// user's package would; `swift package resolve` fetches its dependencies the way it does for
/// that user (here, and in CI, git reads every github.com address from local copies, so nothing
/// goes over the network). What it resolved is read from its `Package.resolved` and from the
/// working copies in `.build/checkouts`.
@Suite(.enabled(if: swiftDriver != nil, "no `swift` on PATH to resolve a consumer package with"), .timeLimit(.minutes(15)))
struct ConsumerPackageTests {
    /// This checkout (`Tests/IntegrationTests/` is below it).
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The three products a command-line tool calling its own API picks: the client, a transport
    /// over AsyncHTTPClient, and a credential store on SQLite.
    static let products = ["AuthCore", "AuthHTTPClient", "AuthSQLiteStore"]

    /// What resolving those three products must fetch, and no more. Their build (on Linux)
    /// compiles modules of the first seventeen; the other six are declared by packages it builds,
    /// for products it does not use (SwiftPM resolves every dependency of a dependency's products,
    /// not only of the products used): swift-nio-transport-services by async-http-client (built on
    /// Apple platforms only); swift-asn1 by swift-crypto; swift-certificates,
    /// swift-service-lifecycle, swift-async-algorithms and swift-http-structured-headers by
    /// swift-nio-extras. None is there because of AuthKit's optional parts.
    static let expected: Set<String> = [
        // AuthCore
        "swift-http-types", "swift-log", "swift-crypto",
        // AuthHTTPClient
        "async-http-client", "swift-nio", "swift-nio-ssl", "swift-nio-http2", "swift-nio-extras",
        "swift-atomics", "swift-algorithms", "swift-numerics", "swift-collections", "swift-system",
        "swift-distributed-tracing", "swift-service-context", "swift-configuration",
        // AuthSQLiteStore
        "grdb.swift",
        // Declared by the packages above for products this consumer does not build.
        "swift-nio-transport-services", "swift-asn1", "swift-certificates", "swift-service-lifecycle",
        "swift-async-algorithms", "swift-http-structured-headers",
    ]

    /// The packages of the optional parts, which the issue saw fetched and never built.
    static let optional: Set<String> = [
        "hummingbird", "hummingbird-auth", "jwt-kit", "postgres-nio", "swift-argument-parser",
        "swift-extras-base64", "swift-metrics", "swift-openapi-runtime",
    ]

    @Test func aConsumerNamingNoTraitResolvesOnlyThePackagesOfItsThreeProducts() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKitConsumer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.writeConsumer(in: folder, traits: [])

        let resolved = try await Self.resolve(folder)
        #expect(resolved == Self.expected, "extra: \(resolved.subtracting(Self.expected).sorted()), missing: \(Self.expected.subtracting(resolved).sorted())")
        #expect(resolved.isDisjoint(with: Self.optional))

        // Naming a trait brings in its packages, and only those: PostgreSQL adds postgres-nio and
        // swift-metrics, which postgres-nio declares.
        try Self.writeConsumer(in: folder, traits: ["PostgreSQL"])
        let withPostgreSQL = try await Self.resolve(folder)
        #expect(withPostgreSQL == Self.expected.union(["postgres-nio", "swift-metrics"]), "got: \(withPostgreSQL.subtracting(Self.expected).sorted())")
    }

    /// Writes a package in `folder` whose one target uses ``products`` of this checkout, with
    /// `traits` enabled on it.
    static func writeConsumer(in folder: URL, traits: [String]) throws {
        let sources = folder.appendingPathComponent("Sources/Consumer")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let identity = checkout.lastPathComponent
        let uses = products.map { #".product(name: "\#($0)", package: "\#(identity)")"# }.joined(separator: ", ")
        let manifest = """
            // swift-tools-version:6.2
            import PackageDescription

            let package = Package(
                name: "Consumer",
                platforms: [.macOS(.v15), .iOS(.v18)],
                dependencies: [.package(path: "\(checkout.path)", traits: [\(traits.map { "\"\($0)\"" }.joined(separator: ", "))])],
                targets: [.executableTarget(name: "Consumer", dependencies: [\(uses)])]
            )

            """
        try manifest.write(to: folder.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let main = products.map { "import \($0)" }.joined(separator: "\n") + "\n"
        try main.write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
    }

    /// Runs `swift package resolve` in `folder`; returns the identities of the packages pinned
    /// in its `Package.resolved`, after checking that they are the working copies it made.
    static func resolve(_ folder: URL) async throws -> Set<String> {
        let driver = try #require(swiftDriver)
        let result = try await WorkerProcess.run(driver, ["package", "--package-path", folder.path, "resolve"], errors: true)
        try #require(result.status == 0, "swift package resolve failed: \(result.output)")

        struct Resolved: Decodable {
            struct Pin: Decodable { let identity: String }
            let pins: [Pin]
        }
        let data = try Data(contentsOf: folder.appendingPathComponent("Package.resolved"))
        let pinned = Set(try JSONDecoder().decode(Resolved.self, from: data).pins.map(\.identity))
        let checkouts = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(".build/checkouts").path)
        #expect(Set(checkouts.map { $0.lowercased() }) == pinned, "checkouts: \(checkouts.sorted())")
        return pinned
    }
}
