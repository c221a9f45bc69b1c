import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A one-connection HTTP/1.1 server on a plain socket: it records the request head byte for
/// byte, as it arrived, and answers with `answer` (by default `200 OK` with no body). For asserting what is on the wire,
/// which a server framework would normalize (it re-joins repeated `Cookie` fields, say).
final class RawHTTPServer: @unchecked Sendable {
    let port: Int
    private let socket: Int32
    private let received = NSLock()
    private var heads: [String] = []
    private let answer: [UInt8]

    init(answer: String = "HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n") throws {
        self.answer = Array(answer.utf8)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        guard bound == 0, listen(socket, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in serve() }.start()
    }

    /// The request heads received so far, each up to its blank line.
    var requestHeads: [String] { received.withLock { heads } }

    /// Stops listening.
    func close() {
        shutdown(socket, Int32(SHUT_RDWR))
        Glibc.close(socket)
    }

    private func serve() {
        while true {
            let connection = accept(socket, nil, nil)
            guard connection >= 0 else { return }
            var data = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !data.ends(with: Array("\r\n\r\n".utf8)) {
                let count = read(connection, &buffer, buffer.count)
                guard count > 0 else { break }
                data += buffer[0..<count]
            }
            received.withLock { heads.append(String(decoding: data, as: UTF8.self)) }
            _ = answer.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            Glibc.close(connection)
        }
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
