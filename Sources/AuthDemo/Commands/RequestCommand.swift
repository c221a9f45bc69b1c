// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import AuthCore
import Foundation
import HTTPTypes

/// `auth-demo request`: sends one request as a stored account.
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "request", abstract: "Send a request as a stored account, renewing its token if needed.")

    @OptionGroup var common: CommonOptions
    @Option(help: "The account to act as.") var account: String
    @Option(help: "The HTTP method.") var method = "GET"
    @Option(help: "A request body; `@file` reads it from a file, `@-` from standard input.") var data: String?
    @Option(help: "The body's content type.") var contentType = "application/json"
    @Argument(help: "The path on the server, such as /me.") var path = "/me"

    func run() async throws {
        let base = try common.baseURL
        try await common.withContainer { container, transport in
            let client = container.makeClient(for: AccountKey(namespace: common.namespace, account: account), strategy: try common.bearer(transport))
            guard let url = URL(string: path, relativeTo: base)?.absoluteURL else { throw ValidationError("bad path \(path)") }
            guard let verb = HTTPRequest.Method(method.uppercased()) else { throw ValidationError("bad method \(method)") }
            var request = try AuthRequest(method: verb, url: url)
            if let body = try self.body() {
                request.body = body
                request.head.headerFields[.contentType] = contentType
            }
            let response = try await client.send(request)
            print("\(response.status.code) \(response.status.reasonPhrase)")
            print(String(decoding: response.body, as: UTF8.self))
            // A status the server refused with is a failure of the command.
            guard (200..<300).contains(response.status.code) else { throw ExitCode.failure }
        }
    }

    /// The `--data` bytes: the text itself, a file's contents (`@path`) or standard input (`@-`).
    private func body() throws -> Data? {
        guard let data else { return nil }
        guard data.hasPrefix("@") else { return Data(data.utf8) }
        let source = String(data.dropFirst())
        if source == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        guard let contents = FileManager.default.contents(atPath: source) else {
            throw ValidationError("--data: cannot read the file \(source)")
        }
        return contents
    }
}

