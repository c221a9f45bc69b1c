import AuthCore
import Foundation
import GRDB

/// Converts between ``Envelope`` / names and the columns of `credential_record`.
///
/// Decoding is strict: a column of the wrong type, an integer that does not fit `Int`, or a
/// name that is not UTF-8 is reported as `.corrupted` (with the record's key) instead of being
/// guessed at, and the row is left in place for inspection.
enum RecordCodec {
    /// The SQL columns read by ``envelope(from:key:)``, in order.
    static let envelopeColumns = "kind, format_version, payload, updated_at, expires_at"

    /// A name as the BLOB the schema stores: its UTF-8 bytes.
    static func blob(_ name: String) -> Data { Data(name.utf8) }

    /// The arguments `(namespace, account, item)` of a record key.
    static func arguments(_ key: CredentialKey) -> StatementArguments {
        [blob(key.namespace), blob(key.account), blob(key.item)]
    }

    /// The arguments `(namespace, account)` of an account key.
    static func arguments(_ account: AccountKey) -> StatementArguments {
        [blob(account.namespace), blob(account.account)]
    }

    /// The arguments of an upsert: the key, then the envelope's columns.
    static func upsertArguments(_ envelope: Envelope, for key: CredentialKey) -> StatementArguments {
        arguments(key) + [
            blob(envelope.kind),
            envelope.formatVersion,
            envelope.payload,
            envelope.updatedAt.timeIntervalSinceReferenceDate,
            envelope.expiresAt?.timeIntervalSinceReferenceDate,
        ]
    }

    /// The envelope stored in `row` (columns ``envelopeColumns``).
    /// - Throws: `.corrupted` naming `key` when a column does not hold what the schema says.
    static func envelope(from row: Row, key: CredentialKey, path: String) throws -> Envelope {
        let values = Array(row.databaseValues)
        guard values.count == 5 else { throw corrupted("it has \(values.count) columns instead of 5", key, path) }
        guard let kind = text(values[0]) else { throw corrupted("its kind is not UTF-8 text", key, path) }
        guard case .int64(let rawVersion) = values[1].storage, let formatVersion = Int(exactly: rawVersion) else {
            throw corrupted("its format_version is not an integer", key, path)
        }
        guard case .blob(let payload) = values[2].storage else { throw corrupted("its payload is not a BLOB", key, path) }
        guard let updatedAt = date(values[3]) else { throw corrupted("its updated_at is not a number", key, path) }
        let expiresAt: Date?
        if values[4].isNull {
            expiresAt = nil
        } else if let date = date(values[4]) {
            expiresAt = date
        } else {
            throw corrupted("its expires_at is not a number", key, path)
        }
        return Envelope(formatVersion: formatVersion, kind: kind, payload: payload, updatedAt: updatedAt, expiresAt: expiresAt)
    }

    /// A stored name: a UTF-8 BLOB (or TEXT, if another tool wrote one).
    static func text(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .blob(let bytes): String(validating: bytes, as: UTF8.self)
        case .string(let string): string
        default: nil
        }
    }

    /// The names in `values`, in Swift's `sorted()` order.
    /// - Throws: `.corrupted` when one is not UTF-8.
    static func sortedNames(_ values: [DatabaseValue], what: String, path: String) throws -> [String] {
        try values.map { value in
            guard let name = text(value) else {
                throw CredentialStoreError.corrupted("a stored \(what) name is not UTF-8 text", path: path)
            }
            return name
        }
        .sorted()
    }

    private static func date(_ value: DatabaseValue) -> Date? {
        switch value.storage {
        case .double(let seconds) where seconds.isFinite: Date(timeIntervalSinceReferenceDate: seconds)
        case .int64(let seconds): Date(timeIntervalSinceReferenceDate: TimeInterval(seconds))
        default: nil
        }
    }

    private static func corrupted(_ reason: String, _ key: CredentialKey, _ path: String) -> CredentialStoreError {
        .corrupted("the stored record cannot be decoded: \(reason); it was left in place", key: key, path: path)
    }
}
