// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import AuthCore
import NIOSSL

extension HTTPClientTransport {
    /// The client `request` goes through (a pinned host's own, or the transport's) and the TLS
    /// configuration that presents the origin's client identity (nil: the client's own).
    /// - Throws: `AuthError` code `.certificateBindingUnmet` when the request's
    ///   bearer token is bound to a certificate the connection would not present; `.pinMismatch`
    ///   when a pinned host is asked for over plain HTTP, where no key can be checked.
    func route(_ request: AuthRequest) throws(AuthError) -> (HTTPClient, TLSConfiguration?) {
        if let authorization = request.head.headerFields[.authorization],
            let required = CertificateBinding.requiredThumbprint(authorization: authorization)
        {
            let origin = request.origin
            let presented = origin.flatMap { tls?.clientIdentities[$0] }
            guard let presented, presented.thumbprint == required else {
                let reason = presented == nil ? "no client certificate is configured for \(origin?.description ?? "the request's origin")" : "the client certificate configured for \(origin?.description ?? "?") is another one"
                throw AuthError(code: .certificateBindingUnmet, message: "the bearer token is bound to a client certificate (cnf.x5t#S256), and \(reason): nothing was sent")
            }
        }
        // Without TLS settings, a request goes through the transport's own client as it is.
        guard tls != nil, let origin = request.origin else { return (client, nil) }
        let configuration = identityConfigurations[origin]
        guard let pinning = tls?.pinning, let entry = pinning.entry(forHost: origin.host) else {
            return (client, configuration)
        }
        guard origin.scheme == "https", let pinned = pinnedClients[entry.pattern] else {
            throw AuthError(code: .pinMismatch, message: "\(origin) is pinned, and a key can be checked only over https: nothing was sent")
        }
        return (pinned, configuration)
    }
}
