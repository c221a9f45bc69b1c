// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation
public import HTTPTypes

/// Signs an outgoing request: adds the header fields (or query items) that prove who sent it and
/// that it was not changed on the way.
///
/// Signers are pure: they read the request and the date they are given and touch no network.
/// ``SigningMiddleware`` runs a signer on every request to its origins, retries and redirect hops
/// included.
///
/// ```swift
/// let signer = HMACRequestSigner(keyID: "client-1", key: SymmetricKey(data: sharedSecret))
/// var request = try AuthRequest(method: .get, url: URL(string: "https://api.example.com/items")!)
/// try await signer.sign(&request, at: Date())
/// ```
///
/// ## Implementing
/// Compute the signature from the request as it is and write it into the request. List every
/// header field the signer writes in ``signatureFieldNames``. Before each signing,
/// ``SigningMiddleware`` calls ``removeSignature(from:)`` so that a later hop (a redirect)
/// carries no stale signature of this signer; the default removes every field of
/// ``signatureFieldNames``. A signer that shares its fields with other signers (as RFC 9421
/// signatures share `Signature-Input` and `Signature`, one dictionary member each) removes only
/// what it wrote, so that another signer's signature stays. ``ClosureRequestSigner`` adapts a
/// closure.
public protocol RequestSigner: Sendable {
    /// The header fields this signer writes.
    var signatureFieldNames: [HTTPField.Name] { get }

    /// Removes what an earlier signing by this signer left on `request`, and nothing that another
    /// signer wrote; ``SigningMiddleware`` calls it before each signing.
    ///
    /// The default removes every field of ``signatureFieldNames``.
    /// - Parameter request: The request to clean; it may carry no signature of this signer.
    func removeSignature(from request: inout AuthRequest)

    /// Signs `request` as of `date`.
    /// - Parameters:
    ///   - request: The request to sign; the signer adds its header fields to it.
    ///   - date: The signing time (timestamps, credential scope).
    /// - Throws: ``SigningError`` (such as `.componentNotFound` for a covered component the
    ///   request lacks) when the request cannot be signed.
    func sign(_ request: inout AuthRequest, at date: Date) async throws
}

extension RequestSigner {
    /// Removes every field of ``signatureFieldNames`` from `request`.
    /// - Parameter request: The request to clean.
    public func removeSignature(from request: inout AuthRequest) {
        for name in signatureFieldNames where request.head.headerFields.contains(name) {
            request.head.headerFields[name] = nil
        }
    }
}

/// A request signer built from a closure; handy in tests and for one-off schemes.
public struct ClosureRequestSigner: RequestSigner {
    /// The header fields the closure writes.
    public let signatureFieldNames: [HTTPField.Name]
    private let body: @Sendable (inout AuthRequest, Date) async throws -> Void

    /// Creates a signer that runs `body` for every request.
    /// - Parameters:
    ///   - signatureFieldNames: The header fields `body` writes.
    ///   - body: Signs the request in place.
    public init(
        signatureFieldNames: [HTTPField.Name] = [],
        _ body: @escaping @Sendable (inout AuthRequest, Date) async throws -> Void
    ) {
        self.signatureFieldNames = signatureFieldNames
        self.body = body
    }

    /// Runs the closure.
    public func sign(_ request: inout AuthRequest, at date: Date) async throws {
        try await body(&request, date)
    }
}
