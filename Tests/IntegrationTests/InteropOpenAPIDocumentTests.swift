// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthTesting
import Foundation
import Testing

/// Issue 22: the OpenAPI document the generated client (`AuthTestServerAPI`) is made from is valid
/// OpenAPI 3.1 by an independent validator, openapi-spec-validator (Python), not only by the
/// generator that read it. The generated client calling the real server through both adapters
/// (`AuthOpenAPITests`) shows the document describes what the server answers.
@Suite struct InteropOpenAPIDocumentTests {
    static let document = InteropPeer.root.appending(path: "Sources/AuthTestServerAPI/openapi.yaml")

    /// Runs the validator on `file`: its exit status and what it printed (waiting for it on a
    /// thread of its own, not on the cooperative pool).
    func validate(_ file: URL) async throws -> (status: Int32, output: String) {
        try await offPool { try Self.runValidator(on: file) }
    }

    static func runValidator(on file: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = InteropPeer.python
        process.arguments = ["-m", "openapi_spec_validator", file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: printed, as: UTF8.self))
    }

    @Test(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote))
    func theDocumentIsValidOpenAPI() async throws {
        guard InteropPeer.isInstalled else { throw InteropPeerError("no Python environment: run scripts/interop-peers") }
        let (status, output) = try await validate(Self.document)
        #expect(status == 0, "openapi-spec-validator: \(output)")
        #expect(output.contains("OK"))
    }

    /// The validator is not a rubber stamp: the same document without its title (required) fails.
    @Test(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote))
    func aBrokenCopyIsRefused() async throws {
        guard InteropPeer.isInstalled else { throw InteropPeerError("no Python environment: run scripts/interop-peers") }
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let broken = text.replacingOccurrences(of: "  title: AuthTestServer\n", with: "")
        try #require(broken != text)
        let copy = FileManager.default.temporaryDirectory.appending(path: "openapi-broken-\(UUID().uuidString).yaml")
        try Data(broken.utf8).write(to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let (status, output) = try await validate(copy)
        #expect(status != 0)
        #expect(output.contains("title"), "the validator names what is missing: \(output)")
    }
}
