#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The blocking file operations the store is built from, as thin wrappers over POSIX calls.
///
/// Files are created with mode 0600 and directories with 0700, set explicitly with `fchmod` /
/// `chmod` so that the process umask does not matter. Every call here blocks; the store runs them
/// on its own dispatch queue, never on the cooperative thread pool.
enum PosixFiles {
    /// The prefix of temporary files; leftovers of a crash are removed when a store opens.
    static let temporaryPrefix = ".tmp-"

    /// One directory entry.
    struct Entry: Equatable {
        var name: String
        var isDirectory: Bool
        var isRegularFile: Bool
    }

    /// Creates a directory with mode 0700 unless it exists. - Returns: whether it was created.
    @discardableResult
    static func makeDirectory(_ path: String) throws(PosixError) -> Bool {
        if mkdir(path, 0o700) != 0 {
            if errno == EEXIST { return false }
            throw .current("mkdir", path)
        }
        guard chmod(path, 0o700) == 0 else { throw .current("chmod", path) }
        return true
    }

    /// The whole contents of a regular file, or nil when it does not exist.
    static func readFile(_ path: String, limit: Int) throws(PosixError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw .current("open", path)
        }
        defer { close(fd) }
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .current("read", path)
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            if bytes.count > limit { return bytes }  // the caller sees it is too large
        }
    }

    /// Writes `bytes` to `path` atomically: a temporary file in the same directory, `fsync`,
    /// `rename` over the target, `fsync` of the directory.
    static func writeAtomically(_ bytes: [UInt8], to path: String, directory: String) throws(PosixError) {
        let temporary = directory + "/" + temporaryPrefix + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .current("open", temporary) }
        do throws(PosixError) {
            guard fchmod(fd, 0o600) == 0 else { throw .current("fchmod", temporary) }
            try writeAll(fd, bytes, path: temporary)
            guard fsync(fd) == 0 else { throw .current("fsync", temporary) }
            guard close(fd) == 0 else {
                _ = unlink(temporary)
                throw .current("close", temporary)
            }
        } catch {
            close(fd)
            _ = unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let failure = PosixError.current("rename", path)
            _ = unlink(temporary)
            throw failure
        }
        try syncDirectory(directory)
    }

    /// Flushes a directory's entries (a rename or a new file in it) to disk.
    static func syncDirectory(_ path: String) throws(PosixError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .current("open", path) }
        defer { close(fd) }
        // Some file systems cannot fsync a directory; they report EINVAL and need none.
        if fsync(fd) != 0 && errno != EINVAL { throw .current("fsync", path) }
    }

    /// Removes a file. - Returns: false when there was none.
    @discardableResult
    static func removeFile(_ path: String) throws(PosixError) -> Bool {
        if unlink(path) == 0 { return true }
        if errno == ENOENT || errno == ENOTDIR { return false }
        throw .current("unlink", path)
    }

    /// Removes a directory if it is empty; does nothing if it is not, or is gone.
    static func removeDirectoryIfEmpty(_ path: String) throws(PosixError) {
        if rmdir(path) == 0 || errno == ENOTEMPTY || errno == EEXIST || errno == ENOENT { return }
        throw .current("rmdir", path)
    }

    /// Renames a file within one directory.
    static func move(_ source: String, to destination: String) throws(PosixError) {
        guard rename(source, destination) == 0 else { throw .current("rename", source) }
    }

    /// The entries of a directory (without `.` and `..`), or nil when it does not exist.
    static func entries(of path: String) throws(PosixError) -> [Entry]? {
        guard let dir = opendir(path) else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw .current("opendir", path)
        }
        defer { closedir(dir) }
        var result: [Entry] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            var info = stat()
            guard lstat(path + "/" + name, &info) == 0 else { continue }  // removed meanwhile
            let type = info.st_mode & S_IFMT
            result.append(Entry(name: name, isDirectory: type == S_IFDIR, isRegularFile: type == S_IFREG))
        }
        return result
    }

    /// Opens (creating with mode 0600) a lock file and returns its descriptor.
    static func openLockFile(_ path: String) throws(PosixError) -> Int32 {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .current("open", path) }
        guard fchmod(fd, 0o600) == 0 else {
            let failure = PosixError.current("fchmod", path)
            close(fd)
            throw failure
        }
        return fd
    }

    /// Tries to take an exclusive `flock` without waiting. - Returns: whether it was taken.
    static func tryLock(_ fd: Int32, path: String) throws(PosixError) -> Bool {
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK { return false }
            throw .current("flock", path)
        }
    }

    /// Releases a `flock` and closes its descriptor.
    static func unlockAndClose(_ fd: Int32) {
        _ = flock(fd, LOCK_UN)
        close(fd)
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(PosixError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { raw in write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .current("write", path)
            }
            offset += count
        }
    }
}
