// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Fuzzes what AuthCore reads from a token endpoint: `TokenResponse.parse` of the body, then the
/// token set it makes (stored with `JSONEncoder` and read back as the vault would, and put on a
/// request). Contracts: parse throws only `AuthError`; a token set that encodes decodes back equal.
/// (`OAuth2Error`, three optional strings read by `JSONDecoder`, lives in AuthOAuth2, which the
/// fuzz package does not build.)
import AuthCore
import Foundation
import FuzzSupport
import HTTPTypes

@main
enum Main {
    static func main() { runLibFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = FuzzInput(data, size).data
    do {
        let response = try TokenResponse.parse(body)
        let tokens = response.tokenSet(issuedAt: fixedNow, renewing: BearerTokenSet(accessToken: "a", refreshToken: "previous"))
        trace("token set \(tokens)")
        var request = AuthRequest(head: .init(method: .get, scheme: "https", authority: "api.example.com", path: "/"))
        tokens.authorize(&request)
        // Every token set a server can produce must be storable (a renewed credential that cannot
        // be persisted breaks "persisted before use").
        let stored = try? JSONEncoder().encode(tokens)
        require(stored != nil, "a token set from the server cannot be encoded for the store")
        let restored = stored.flatMap { try? JSONDecoder().decode(BearerTokenSet.self, from: $0) }
        require(restored == tokens, "a stored token set does not read back equal")
    } catch {
        trace("error \(error)")
        require(error is AuthError, "TokenResponse.parse threw \(type(of: error)), not AuthError")
    }
    return 0
}
