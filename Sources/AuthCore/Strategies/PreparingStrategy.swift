// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// A strategy that keeps state beside its credential (a cookie session's jar), which must match
/// the credential a request carries.
///
/// The credential a request is about to carry may have been signed in or renewed by another
/// process sharing the store, which saved its own state in the store too. Before each attempt,
/// just before ``AuthStrategy/authorize(_:with:)``, the ``AuthenticationMiddleware`` calls
/// ``prepare(_:)`` with that credential: take the other process's state from the store there.
/// A strategy whose renewal needs the same state does the same at the start of its
/// ``AuthStrategy/renew(_:context:)``.
///
/// It is a capability of its own, found once when the middleware is made: strategies whose
/// credential is all they need (bearer tokens, API keys) cost nothing per request.
/// ``AccountSession/credentialForRequest()`` does not call it; code that attaches a credential
/// itself calls it too.
public protocol PreparingStrategy<Value>: AuthStrategy {
    /// Brings the strategy's own state in line with `credential`; a failure to read it leaves
    /// the state as it was (the request goes on, and the server's answer tells).
    func prepare(_ credential: Value) async
}
