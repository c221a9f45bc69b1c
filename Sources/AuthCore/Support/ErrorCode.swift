// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// What kind of failure an error is: the `Code` of AuthKit's error types.
///
/// Each error type names its codes with `public typealias Code = ErrorCode<ItsError>` and
/// declares them, each with its doc comment, as static members of
/// `extension ErrorCode where Domain == ItsError`; so the codes of different error types never
/// mix, and an error type's code list is what its extension declares.
///
/// It is a struct rather than an enum, so that new codes do not break users' `switch`
/// statements. Compare codes, or match them in a `switch`:
///
/// ```swift
/// func retryLater(_ error: AuthError) -> Bool {
///     switch error.code {
///     case .storage, .renewalFailed, .transport, .timeout: true
///     default: error.code == .excessiveRenewal
///     }
/// }
/// ```
public struct ErrorCode<Domain>: Hashable, Sendable, CustomStringConvertible {
    private let name: String

    /// Creates a code, in the AuthKit module that defines `Domain`'s codes (package access:
    /// users compare with the codes a module declares, they do not make new ones).
    /// - Parameter name: The code's name, as its ``description`` shows it: the name of the
    ///   static member that declares it.
    package init(_ name: String) { self.name = name }

    /// A text form of the code: its name.
    public var description: String { name }
}
