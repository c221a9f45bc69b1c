import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates the store's directory or checks that an existing one is safe to keep secrets in.
enum DirectoryGuard {
    /// Makes sure `url` is a directory only its owner, this user, can write to.
    ///
    /// Missing directories (the root and any missing parents) are created with mode 0700. An
    /// existing root must be a directory owned by the effective user whose mode gives group and
    /// others no write access; it is not changed.
    /// - Returns: The real path of the directory (symbolic links resolved).
    /// - Throws: ``FileStoreError``.
    static func prepare(_ url: URL) throws(FileStoreError) -> String {
        guard url.isFileURL else {
            throw FileStoreError(code: .invalidLocation, message: "the store location must be a file URL", path: url.absoluteString)
        }
        let path = url.standardizedFileURL.path
        try createMissing(path)
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw FileStoreError(code: .io, message: "cannot inspect the store directory", path: path, underlying: PosixError.current("stat", path))
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw FileStoreError(code: .notADirectory, message: "the store location exists and is not a directory", path: path)
        }
        guard info.st_uid == geteuid() else {
            throw FileStoreError(
                code: .foreignOwner,
                message: "the store directory belongs to user id \(info.st_uid), not to this user (\(geteuid())); use a directory of your own",
                path: path)
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o022 == 0 else {
            throw FileStoreError(
                code: .insecurePermissions,
                message: "the store directory has mode \(String(mode, radix: 8)), so other users can write to it; run `chmod 700` on it or choose another directory",
                path: path)
        }
        guard let resolved = realpath(path, nil) else {
            throw FileStoreError(code: .io, message: "cannot resolve the store directory", path: path, underlying: PosixError.current("realpath", path))
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Creates `path` and any missing parent with mode 0700.
    private static func createMissing(_ path: String) throws(FileStoreError) {
        var missing: [String] = []
        var current = path
        var info = stat()
        while !current.isEmpty, current != "/", stat(current, &info) != 0 {
            guard errno == ENOENT else { break }  // reported by the caller's own stat
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        for directory in missing.reversed() {
            do {
                try PosixFiles.makeDirectory(directory)
            } catch {
                throw FileStoreError(code: .io, message: "cannot create the store directory", path: directory, underlying: error)
            }
        }
    }
}
