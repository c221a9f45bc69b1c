// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import HTTPTypes

/// The fields several RFC 9421 signers share on one request: `Signature-Input` and `Signature`
/// (one dictionary member per label) and `Content-Digest`.
extension HTTPMessageSigner {
    /// Removes this signer's member (its ``label``) from `Signature-Input` and `Signature`, and a
    /// field it leaves empty; the members of other labels stay.
    ///
    /// A field that is not a structured dictionary is removed: no signature in it can be
    /// verified. `Content-Digest` stays: ``sign(_:at:)`` keeps it when it matches the body (another
    /// signature may cover it) and writes it again when it does not.
    /// - Parameter request: The request to clean.
    public func removeSignature(from request: inout AuthRequest) {
        for name in [Self.signatureInputField, Self.signatureField] {
            guard let value = request.head.headerFields[name] else { continue }
            guard var dictionary = try? StructuredField.parseDictionary(value) else {
                request.head.headerFields[name] = nil
                continue
            }
            let count = dictionary.entries.count
            dictionary.entries.removeAll { $0.key == label }
            guard dictionary.entries.count != count else { continue }
            request.head.headerFields[name] = dictionary.entries.isEmpty ? nil : dictionary.serialized
        }
    }

    /// The `Content-Digest` value ``sign(_:at:)`` sends: the digests of ``contentDigest``, unless
    /// the request already has a `Content-Digest` that matches its body (written by another
    /// signer, or by the caller).
    ///
    /// That field is kept as it is when another signature on the request covers it (changing
    /// it would break that signature; the digest there already proves the body, to a verifier
    /// of this signature too); otherwise this signer's missing algorithms are added to it.
    func contentDigestValue(for request: AuthRequest) -> String {
        let ours = ContentDigest.value(for: request.body, algorithms: contentDigest)
        guard let existing = request.head.headerFields[ContentDigest.fieldName],
              (try? ContentDigest.verify(existing, body: request.body)) != nil,
              var dictionary = try? StructuredField.parseDictionary(existing),
              let added = try? StructuredField.parseDictionary(ours)
        else { return ours }
        let missing = added.entries.filter { entry in !dictionary.entries.contains { $0.key == entry.key } }
        guard !missing.isEmpty, !anotherSignatureCoversContentDigest(request) else { return existing }
        dictionary.entries += missing
        return dictionary.serialized
    }

    /// Whether a signature of another label on `request` covers `content-digest`.
    private func anotherSignatureCoversContentDigest(_ request: AuthRequest) -> Bool {
        guard let inputs = request.head.headerFields[Self.signatureInputField] else { return false }
        // An unreadable Signature-Input is replaced by `sign`: nothing in it is kept to verify.
        guard let dictionary = try? StructuredField.parseDictionary(inputs) else { return false }
        return dictionary.entries.contains { entry in
            guard entry.key != label, case .innerList(let list) = entry.member else { return false }
            return list.items.contains { $0.bareItem == .string("content-digest") }
        }
    }
}
