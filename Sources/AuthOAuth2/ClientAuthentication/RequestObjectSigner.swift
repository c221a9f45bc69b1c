// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// Signs request objects (RFC 9101, JWT-secured authorization requests): the parameters of an
/// authorization request as claims of a JWT the client signs, so that nothing between the client
/// and the provider can change them. ``PrivateKeyJWT`` is one, with the key the client
/// authenticates with.
public protocol RequestObjectSigner: Sendable {
    /// A request object for `clientID` carrying `parameters`, addressed to the provider whose
    /// issuer is `audience`.
    func requestObject(clientID: String, audience: URL, parameters: [(String, String)]) async throws -> String
}
