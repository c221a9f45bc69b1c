// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Real files for tests: a fresh folder under the system's temporary directory.
enum TestFiles {
    /// Runs `body` with a new, empty folder (mode 0755) that is removed afterwards.
    /// The store tests usually open `folder/store`, which the store creates itself.
    static func withTemporaryFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("AuthFileStoreTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    /// Every path under `root` (files and folders, hidden ones too), relative to it.
    static func allPaths(under root: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: root.path)
    }

    /// The real path of `path` (symbolic links resolved), or nil when it cannot be resolved.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The permission bits (`st_mode & 0o777`) of `path`, without following a symbolic link.
    static func mode(_ path: String) -> Int? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Int(info.st_mode & 0o777)
    }

    /// Whether `path` is a directory (not following symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// A record for tests.
    static func envelope(_ text: String, kind: String = "test") -> Envelope {
        Envelope(kind: kind, payload: Data(text.utf8), updatedAt: Date(timeIntervalSince1970: 1_700_000_000))
    }
}
