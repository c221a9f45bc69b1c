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

extension FileStoreEngine {
    /// What the bytes of a record file turned out to be.
    enum Judgement {
        case record(Envelope)
        case newerVersion(Int)
        case corrupted(String)
    }

    /// Reads one record.
    ///
    /// A file that cannot be decoded is re-read under the write lock (a writer may have replaced
    /// it meanwhile); if it is still bad it is moved aside (see ``moveAside(_:in:)``) and the call
    /// throws `.corrupted` naming the file. A file of a newer container version throws
    /// `.incompatibleVersion` and stays where it is.
    func get(_ key: CredentialKey) throws(CredentialStoreError) -> Envelope? {
        let path = layout.recordPath(key)
        let name = StoreLayout.recordName(key.item)
        guard let bytes = try read(key) else { return nil }
        switch judge(bytes, key: key) {
        case .record(let envelope):
            return envelope
        case .newerVersion(let found):
            throw CredentialStoreError.incompatibleVersion(found: found, supported: Int(RecordFile.version), key: key, path: path)
        case .corrupted(let reason):
            guard quarantinesCorruptedRecords else {
                throw CredentialStoreError.corrupted("the record file cannot be decoded: \(reason); it was left in place", key: key, path: path)
            }
        }
        return try withWriteLock { () throws(CredentialStoreError) -> Envelope? in
            // Opened again under the lock: a writer may have replaced the file, or the directory.
            guard let directory = try accountDirectory(key),
                  let again = try read(name, in: directory, key: key)
            else { return nil }
            switch judge(again, key: key) {
            case .record(let envelope):
                return envelope  // replaced by a writer meanwhile
            case .newerVersion(let found):
                throw CredentialStoreError.incompatibleVersion(found: found, supported: Int(RecordFile.version), key: key, path: path)
            case .corrupted(let reason):
                let moved = try moveAside(name, in: directory)
                throw CredentialStoreError.corrupted("the record file cannot be decoded: \(reason); it was moved aside to \(moved)", key: key, path: path)
            }
        }
    }

    /// Decodes file bytes and checks they hold the record of `key`.
    func judge(_ bytes: [UInt8], key: CredentialKey) -> Judgement {
        guard bytes.count <= RecordFile.maximumSize else {
            return .corrupted("the file is larger than \(RecordFile.maximumSize) bytes")
        }
        do {
            let record = try RecordFile.decode(bytes)
            guard StoreLayout.matches(record.key, key) else { return .corrupted("the file holds the record of another key") }
            return .record(record.envelope)
        } catch {
            switch error {
            case .corrupted(let reason): return .corrupted(reason)
            case .newerVersion(let found): return .newerVersion(found)
            }
        }
    }

    /// The key stored inside a record file, or nil when it cannot be read (listing skips it).
    func storedKey(_ name: String, in directory: StoreDirectory) -> CredentialKey? {
        guard let bytes = try? directory.readFile(name, limit: RecordFile.maximumSize),
              let record = try? RecordFile.decode(bytes)
        else { return nil }
        return record.key
    }

    /// Renames a damaged record file to `<name>.corrupt-<UTC time>` beside it; never deletes it.
    /// - Returns: The new file name.
    func moveAside(_ name: String, in directory: StoreDirectory) throws(CredentialStoreError) -> String {
        try Self.wrap("cannot move the damaged record file aside") { () throws(FileIOError) in
            let base = name + StoreLayout.quarantineInfix + Self.timestamp(now())
            var candidate = base
            var counter = 1
            while try directory.exists(candidate) {
                counter += 1
                candidate = base + "-\(counter)"
            }
            try directory.move(name, to: candidate)
            try directory.sync()
            return candidate
        }
    }

    /// The directory of the account of `key`, or nil when it does not exist.
    private func accountDirectory(_ key: CredentialKey) throws(CredentialStoreError) -> StoreDirectory? {
        try Self.wrap("cannot read the record file", key: key) { () throws(FileIOError) in
            try root.subdirectory(StoreLayout.namespaceName(key.namespace))?.subdirectory(StoreLayout.accountName(key.account))
        }
    }

    /// The bytes of the record file of `key`, or nil when there is none.
    func read(_ key: CredentialKey) throws(CredentialStoreError) -> [UInt8]? {
        guard let directory = try accountDirectory(key) else { return nil }
        return try read(StoreLayout.recordName(key.item), in: directory, key: key)
    }

    private func read(_ name: String, in directory: StoreDirectory, key: CredentialKey) throws(CredentialStoreError) -> [UInt8]? {
        try Self.wrap("cannot read the record file", key: key) { () throws(FileIOError) in
            try directory.readFile(name, limit: RecordFile.maximumSize)
        }
    }

    /// `20261122T000540Z`.
    static func timestamp(_ date: Date) -> String {
        let raw = date.timeIntervalSince1970
        var seconds = raw.isFinite ? time_t(min(max(raw, 0), 1e12).rounded(.down)) : 0
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(parts.tm_year + 1900, 4) + pad(parts.tm_mon + 1, 2) + pad(parts.tm_mday, 2)
            + "T" + pad(parts.tm_hour, 2) + pad(parts.tm_min, 2) + pad(parts.tm_sec, 2) + "Z"
    }
}
