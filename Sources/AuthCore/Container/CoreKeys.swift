// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import HTTPTypes
public import Logging

/// The transport requests go out through. AuthHTTPClient registers one with
/// `container.useHTTPClient(_:)`; the default throws for every request.
public enum TransportKey: AuthContainerKey {
    /// A transport that refuses to send, saying what to register.
    public static func makeDefault(_ container: AuthContainer) -> any Transport {
        ClosureTransport { _ in
            throw AuthError.transport("no transport is registered: call container.useHTTPClient(…) from AuthHTTPClient, or override TransportKey")
        }
    }
}

/// Where credentials are kept; an ``InMemoryCredentialStore`` by default.
public enum CredentialStoreKey: AuthContainerKey {
    /// A new in-memory store; clients built on it say that nothing is persisted.
    public static func makeDefault(_ container: AuthContainer) -> any CredentialStore { InMemoryCredentialStore(containerDefault: ()) }
}

/// The cipher that seals stored credentials; none by default.
public enum CredentialCipherKey: AuthContainerKey {
    /// No cipher.
    public static func makeDefault(_ container: AuthContainer) -> (any CredentialCipher)? { nil }
}

/// Upgrades old stored records; none by default (AuthMigration provides one).
public enum EnvelopeUpgraderKey: AuthContainerKey {
    /// No upgrader.
    public static func makeDefault(_ container: AuthContainer) -> (any EnvelopeUpgrading)? { nil }
}

/// The clock; the system clock by default.
public enum ClockKey: AuthContainerKey {
    /// The system clock.
    public static func makeDefault(_ container: AuthContainer) -> any AuthClock { SystemClock() }
}

/// The logger; one that discards everything by default (libraries do not configure logging).
public enum LoggerKey: AuthContainerKey {
    /// A logger with no output.
    public static func makeDefault(_ container: AuthContainer) -> Logger {
        Logger(label: "AuthKit", factory: { _ in SwiftLogNoOpLogHandler() })
    }
}

/// The event broadcaster every client of the container reports to.
public enum AuthEventsKey: AuthContainerKey {
    /// A new broadcaster.
    public static func makeDefault(_ container: AuthContainer) -> AuthEvents { AuthEvents() }
}

/// Renewal limits and leeway.
public enum RenewalPolicyKey: AuthContainerKey {
    /// The default policy.
    public static func makeDefault(_ container: AuthContainer) -> RenewalPolicy { RenewalPolicy() }
}

/// Retry limits and backoff.
public enum RetryPolicyKey: AuthContainerKey {
    /// The default policy.
    public static func makeDefault(_ container: AuthContainer) -> RetryPolicy { RetryPolicy() }
}

/// A time limit per transport attempt, enforced by ``TimeoutMiddleware``; none by default
/// (transports have their own, such as AuthHTTPClient's 30 seconds for a response's head, which
/// the middleware's limit replaces).
public enum RequestTimeoutKey: AuthContainerKey {
    /// No limit.
    public static func makeDefault(_ container: AuthContainer) -> Duration? { nil }
}

/// Header fields added to every request, such as a `User-Agent`. A field under a secret name
/// (``SecretFieldNames/standard`` or `container.markSecret(_:)`) goes only to the origins of the
/// account client's strategy, and never through a public client (see ``HeadersMiddleware``).
public enum DefaultHeadersKey: AuthContainerKey {
    /// None.
    public static func makeDefault(_ container: AuthContainer) -> HTTPFields { [:] }
}

/// Header and query item names every client of the container treats as secret, besides
/// ``SecretFieldNames/standard`` and what each credential marks: its logging redacts them and its
/// redirects drop them on a hop to another origin. Add to it with `container.markSecret(_:)`.
public enum SecretFieldsKey: AuthContainerKey {
    /// None beyond the standard names.
    public static func makeDefault(_ container: AuthContainer) -> SecretFieldNames { SecretFieldNames() }
}

/// The vault built from the store, cipher, upgrader and clock entries.
public enum CredentialVaultKey: AuthContainerKey {
    /// A vault over the container's store.
    public static func makeDefault(_ container: AuthContainer) -> CredentialVault {
        CredentialVault(store: container[CredentialStoreKey.self], cipher: container[CredentialCipherKey.self], upgrader: container[EnvelopeUpgraderKey.self], clock: container[ClockKey.self])
    }
}

/// The session registry every client of the container shares: one session per account.
public enum SessionRegistryKey: AuthContainerKey {
    /// A registry over the container's vault, policy, clock, events, logger and sign-out steps.
    public static func makeDefault(_ container: AuthContainer) -> SessionRegistry {
        SessionRegistry(vault: container[CredentialVaultKey.self], policy: container[RenewalPolicyKey.self], clock: container[ClockKey.self], events: container[AuthEventsKey.self], logger: container[LoggerKey.self], signOutSteps: container[SignOutStepsKey.self])
    }
}
