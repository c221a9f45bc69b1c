// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Fuzzes the one parser of a request's authority (AuthCore's `Origin`, `AllowedHosts` and
/// `AuthRequest.urlForTransport()`) with an arbitrary authority and path, read as
/// `authority` + `\n` + `path`. Contract, against Foundation's URL parser as an independent
/// reader: whenever `AllowedHosts` lets a credential go with the request, the URL the transport
/// connects to (when it accepts the request at all) parses, by Foundation, to exactly the allowed
/// host and port; and a request that has no origin cannot be sent.
import AuthCore
import Foundation
import FuzzSupport
import HTTPTypes

@main
enum Main {
    static func main() { runLibFuzzer(fuzz) }
}

let hosts = AllowedHosts(["127.0.0.1:8080", "api.example.com", "[::1]:*"])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput(data, size).text
    let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let authority = String(parts[0]), path = parts.count > 1 ? String(parts[1]) : "/"
    for scheme in ["http", "https"] {
        let request = AuthRequest(head: HTTPRequest(method: .get, scheme: scheme, authority: authority, path: path))
        let url = try? request.urlForTransport()
        if request.origin == nil { require(url == nil, "no origin, yet a transport URL: \(url ?? "")") }
        // A request the transport refuses (a malformed path, say) sends nothing, credential or not.
        guard hosts.allows(request), let url else { continue }
        guard let origin = request.origin else {
            require(false, "allowed without an origin: \(authority)")
            return 0
        }
        let parsed = URL(string: url)
        trace("\(url) -> \(parsed?.host ?? "nil"):\(parsed?.port.map(String.init) ?? "-")")
        require(parsed?.scheme == scheme, "\(url): scheme \(parsed?.scheme ?? "nil")")
        let host = parsed?.host.map { $0.hasPrefix("[") ? String($0.dropFirst().dropLast()) : $0 }?.lowercased()
        require(host == origin.host, "\(url): Foundation reads host \(host ?? "nil"), the check read \(origin.host)")
        require((parsed?.port ?? (scheme == "https" ? 443 : 80)) == origin.port, "\(url): Foundation reads port \(parsed?.port.map(String.init) ?? "default"), the check read \(origin.port)")
        require(parsed?.user == nil && parsed?.password == nil, "\(url): Foundation reads userinfo")
    }
    return 0
}
