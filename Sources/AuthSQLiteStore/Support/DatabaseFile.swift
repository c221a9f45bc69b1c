import AuthCore
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// File-level care around the database: inspect an existing file without changing it, create a
/// new one private to its owner, keep the WAL side files private too.
enum DatabaseFile {
    /// What is at the database path before SQLite opens it.
    enum State: Equatable {
        /// Nothing: the store creates a new database.
        case absent
        /// An empty file: SQLite initialises it as a new database.
        case empty
        /// A file that starts with the SQLite header; validated read-only before use.
        case database
    }

    /// The 16 bytes every SQLite 3 database starts with.
    static let sqliteHeader: [UInt8] = Array("SQLite format 3\u{0}".utf8)

    /// The file's state, read without writing anything.
    /// - Throws: `.corrupted` naming the path when the file is not an SQLite database;
    ///   `.io` when it cannot be read.
    static func inspect(_ path: String) throws -> State {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .absent }
        if isDirectory.boolValue {
            throw CredentialStoreError(code: .io, message: "the credential database path is a directory", path: path)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CredentialStoreError(code: .io, message: "the credential database file cannot be read", path: path)
        }
        defer { try? handle.close() }
        let prefix: Data
        do {
            prefix = try handle.read(upToCount: sqliteHeader.count) ?? Data()
        } catch {
            throw CredentialStoreError(code: .io, message: "the credential database file cannot be read", path: path, underlying: error)
        }
        if prefix.isEmpty { return .empty }
        guard Array(prefix) == sqliteHeader else {
            throw CredentialStoreError.corrupted(
                "the file is not an SQLite database (it lacks the SQLite header); it was left untouched, move it away or restore it",
                path: path)
        }
        return .database
    }

    /// Creates an empty database file with mode 0600, unless one exists already.
    ///
    /// SQLite gives the `-wal` and `-shm` files it creates later the mode of the database file, so
    /// they are private too. `O_EXCL` makes this safe against another process creating the file at
    /// the same moment: the loser simply opens the winner's file.
    static func createPrivate(_ path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw CredentialStoreError(code: .io, message: "the folder of the credential database cannot be created", path: path, underlying: error)
            }
        }
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            let code = errno
            if code == EEXIST { return }
            throw CredentialStoreError(code: .io, message: "the credential database file cannot be created (errno \(code))", path: path)
        }
        // The umask may have removed bits from 0600; set the mode exactly.
        _ = fchmod(descriptor, 0o600)
        _ = close(descriptor)
    }

    /// Sets mode 0600 on the database file and on its `-wal` and `-shm` files where they exist.
    static func restrictPermissions(_ path: String) throws {
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            let current = (try? FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)?.intValue
            if current.map({ $0 & 0o777 }) == 0o600 { continue }
            do {
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
            } catch {
                throw CredentialStoreError(code: .io, message: "cannot make the credential database private (mode 0600)", path: file, underlying: error)
            }
        }
    }
}
