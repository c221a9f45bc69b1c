// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Fuzzes AuthCore's `JWT.decode` (the claims of access and id tokens from a server) twice per
/// input: the input as a whole token, and the input as the payload JSON of a well-formed token
/// (so the claim decoding is reached without the fuzzer having to learn base64url). Also builds a
/// `BearerTokenSet` from the token, which reads `exp`. Contracts: decoding is deterministic, and
/// `JWT.base64URLDecode` of each segment the token decode accepted is stable.
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
    let input = FuzzInput(data, size)
    check(input.text)
    let header = base64URL(Data(#"{"alg":"none","typ":"JWT"}"#.utf8))
    check(header + "." + base64URL(input.data) + ".c2ln")
    return 0
}

func check(_ token: String) {
    let first = Result { try JWT.decode(token) }
    switch first {
    case .success(let claims):
        trace("claims exp=\(claims.expiresAt.map { "\($0.timeIntervalSince1970)" } ?? "nil") sub=\(claims.subject ?? "nil") aud=\(claims.audience)")
        let again = try? JWT.decode(token)
        require(again == claims, "JWT.decode is not deterministic")
    case .failure(let error):
        trace("error \(error)")
        require(error is JWTError, "JWT.decode threw \(type(of: error)), not JWTError")
    }
    let tokens = BearerTokenSet(accessToken: token, refreshToken: "r")
    if case .success(let claims) = first {
        require(tokens.expiresAt == claims.expiresAt, "BearerTokenSet.expiresAt differs from the JWT exp claim")
    }
    var request = AuthRequest(head: .init(method: .get, scheme: "https", authority: "api.example.com", path: "/"))
    tokens.authorize(&request)
}

func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}
