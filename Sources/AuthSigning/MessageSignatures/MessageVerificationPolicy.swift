// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// What an ``HTTPMessageSignatureVerifier`` demands of a signature beyond a valid signature.
///
/// ```swift
/// let policy = MessageVerificationPolicy(requiredComponents: [.method, .targetURI, .header("content-digest")], maximumAge: 300)
/// ```
public struct MessageVerificationPolicy: Sendable {
    /// The label to verify; `nil` verifies the first label in `Signature-Input`.
    public var label: String?
    /// Components the signature must cover.
    public var requiredComponents: [ComponentIdentifier]
    /// Whether `created` must be present.
    public var requiresCreated: Bool
    /// The oldest `created` accepted, in seconds before now; `nil` for no limit.
    public var maximumAge: TimeInterval?
    /// Allowed clock difference in seconds for `created` and `expires`.
    public var tolerance: TimeInterval
    /// The `tag` the signature must carry, if any.
    public var requiredTag: String?

    /// Creates a policy.
    public init(
        label: String? = nil, requiredComponents: [ComponentIdentifier] = [], requiresCreated: Bool = true,
        maximumAge: TimeInterval? = 300, tolerance: TimeInterval = 60, requiredTag: String? = nil
    ) {
        self.label = label
        self.requiredComponents = requiredComponents
        self.requiresCreated = requiresCreated
        self.maximumAge = maximumAge
        self.tolerance = tolerance
        self.requiredTag = requiredTag
    }
}
