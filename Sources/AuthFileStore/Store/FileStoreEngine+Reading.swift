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
    /// it meanwhile); if it is still bad it is moved aside (see ``moveAside(_:)``) and the call
    /// throws `.corrupted` naming the file. A file of a newer container version throws
    /// `.incompatibleVersion` and stays where it is.
    func get(_ key: CredentialKey) throws(CredentialStoreError) -> Envelope? {
        let path = layout.recordPath(key)
        guard let bytes = try read(path, key: key) else { return nil }
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
            guard let again = try read(path, key: key) else { return nil }
            switch judge(again, key: key) {
            case .record(let envelope):
                return envelope  // replaced by a writer meanwhile
            case .newerVersion(let found):
                throw CredentialStoreError.incompatibleVersion(found: found, supported: Int(RecordFile.version), key: key, path: path)
            case .corrupted(let reason):
                let moved = try moveAside(path)
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
    func storedKey(at path: String) -> CredentialKey? {
        guard let bytes = try? PosixFiles.readFile(path, limit: RecordFile.maximumSize),
              let record = try? RecordFile.decode(bytes)
        else { return nil }
        return record.key
    }

    /// Renames a damaged record file to `<name>.corrupt-<UTC time>` beside it; never deletes it.
    /// - Returns: The new file name.
    func moveAside(_ path: String) throws(CredentialStoreError) -> String {
        let base = path + StoreLayout.quarantineInfix + Self.timestamp(now())
        var candidate = base
        var info = stat()
        var counter = 1
        while lstat(candidate, &info) == 0 {
            counter += 1
            candidate = base + "-\(counter)"
        }
        let target = candidate
        try Self.wrap("cannot move the damaged record file aside") { () throws(PosixError) in
            try PosixFiles.move(path, to: target)
            try PosixFiles.syncDirectory((path as NSString).deletingLastPathComponent)
        }
        return (target as NSString).lastPathComponent
    }

    private func read(_ path: String, key: CredentialKey) throws(CredentialStoreError) -> [UInt8]? {
        try Self.wrap("cannot read the record file", key: key) { () throws(PosixError) in
            try PosixFiles.readFile(path, limit: RecordFile.maximumSize)
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
