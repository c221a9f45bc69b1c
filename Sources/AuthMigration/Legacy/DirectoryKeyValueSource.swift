// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// A ``KeyValueSource`` over a directory holding one file per key, the layout of many
/// command-line tools (`~/.mytool/access_token`, `~/.mytool/refresh_token`).
///
/// A value is the file's UTF-8 text; the importer trims surrounding whitespace and newlines.
/// A missing file is no value. Files are only read, never changed or removed.
///
/// ```swift
/// let source = DirectoryKeyValueSource(directory: home.appendingPathComponent(".mytool"))
/// ```
public struct DirectoryKeyValueSource: KeyValueSource, CustomStringConvertible {
    /// The largest file read as a value: legacy token files are small.
    public static let maximumFileSize = 64 * 1024

    /// The directory holding the files.
    public let directory: URL
    /// An extension appended to each key to name its file (such as `txt`), if any.
    public let fileExtension: String?

    /// Reads files in `directory`.
    /// - Parameters:
    ///   - directory: The legacy directory.
    ///   - fileExtension: An extension added to each key to name its file, without the dot.
    public init(directory: URL, fileExtension: String? = nil) {
        self.directory = directory
        self.fileExtension = fileExtension
    }

    /// The text of the file named after `key`, or nil when there is no such file.
    /// - Throws: ``MigrationError`` `.invalidSourceKey` for a key that is not a plain file name;
    ///   `.sourceUnreadable` when the file exists but cannot be read or is too large;
    ///   `.invalidLegacyValue` when it is not UTF-8 text.
    public func value(for key: String) async throws -> String? {
        guard !key.isEmpty, key != ".", key != "..", !key.contains("/"), !key.contains("\u{0}") else {
            throw MigrationError(code: .invalidSourceKey, message: "'\(key)' is not a plain file name, so it cannot name a file in the legacy directory")
        }
        var file = directory.appendingPathComponent(key, isDirectory: false)
        if let fileExtension { file.appendPathExtension(fileExtension) }
        let path = file.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard !isDirectory.boolValue else {
            throw MigrationError(code: .sourceUnreadable, message: "the legacy value '\(key)' is a directory, not a file (\(path))")
        }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            data = try handle.read(upToCount: Self.maximumFileSize + 1) ?? Data()
        } catch {
            throw MigrationError(code: .sourceUnreadable, message: "the legacy file of '\(key)' could not be read (\(path))", underlying: RedactedFailure.wrap(error))
        }
        guard data.count <= Self.maximumFileSize else {
            throw MigrationError(code: .sourceUnreadable, message: "the legacy file of '\(key)' is larger than \(Self.maximumFileSize) bytes (\(path))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw MigrationError(code: .invalidLegacyValue, message: "the legacy file of '\(key)' is not UTF-8 text (\(path))")
        }
        return text
    }

    /// The directory; never a value.
    public var description: String { "DirectoryKeyValueSource(\(directory.path))" }
}
