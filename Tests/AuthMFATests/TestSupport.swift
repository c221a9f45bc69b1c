// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import Synchronization

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    func set(_ date: Date) { current.withLock { $0 = date } }
}

/// A minimal credential store on real files: one JSON-encoded envelope per record in a
/// directory, so that a test can "restart" by opening a new store over the same directory.
/// Test-only; AuthFileStore is the real one.
struct DirectoryTestStore: CredentialStore {
    let directory: URL

    static func temporary() throws -> DirectoryTestStore {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("authmfa-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return DirectoryTestStore(directory: url)
    }

    private func file(_ key: CredentialKey) -> URL {
        let name = [key.namespace, key.account, key.item].map { Data($0.utf8).base64EncodedString().replacingOccurrences(of: "/", with: "_") }.joined(separator: ".")
        return directory.appendingPathComponent(name)
    }

    private func allKeys() throws -> [CredentialKey] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).compactMap { name in
            let parts = name.split(separator: ".").map { String($0).replacingOccurrences(of: "_", with: "/") }
            guard parts.count == 3 else { return nil }
            let decoded = parts.compactMap { Data(base64Encoded: $0).flatMap { String(data: $0, encoding: .utf8) } }
            guard decoded.count == 3 else { return nil }
            return CredentialKey(namespace: decoded[0], account: decoded[1], item: decoded[2])
        }
    }

    func get(_ key: CredentialKey) async throws -> Envelope? {
        guard let data = FileManager.default.contents(atPath: file(key).path) else { return nil }
        return try JSONDecoder().decode(Envelope.self, from: data)
    }
    func put(_ envelope: Envelope, for key: CredentialKey) async throws {
        try JSONEncoder().encode(envelope).write(to: file(key), options: .atomic)
    }
    func delete(_ key: CredentialKey) async throws {
        try? FileManager.default.removeItem(at: file(key))
    }
    func items(of account: AccountKey) async throws -> [String] {
        try allKeys().filter { $0.accountKey == account }.map(\.item).sorted()
    }
    func accounts(in namespace: String) async throws -> [String] {
        Set(try allKeys().filter { $0.namespace == namespace }.map(\.account)).sorted()
    }
    func namespaces() async throws -> [String] {
        Set(try allKeys().map(\.namespace)).sorted()
    }
    func deleteAccount(_ account: AccountKey) async throws {
        for key in try allKeys() where key.accountKey == account { try await delete(key) }
    }
    func deleteAll() async throws {
        for key in try allKeys() { try await delete(key) }
    }
    func removeDirectory() { try? FileManager.default.removeItem(at: directory) }
}
