// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import Synchronization

/// Why the pool last failed to open a connection, for a store call that timed out waiting for one.
///
/// PostgresNIO's pool retries a connection that fails to open and lets the queries wait meanwhile
/// (until its circuit breaker trips, a minute later); it tells why only to its background logger:
/// "Connection creation failed", the error rendered by `String(reflecting:)` in `psql_error`. A
/// store made by `open` gives its pool a logger whose handler is this log, which keeps the last
/// failure's SQLSTATE (or PostgresNIO's error code), so that a wait that ends at the operation
/// timeout can say what happened: a wrong password is `.misconfigured`, not an outage that may
/// pass. Nothing else of the pool's log is kept or forwarded.
final class ConnectFailureLog: Sendable {
    /// One failed attempt.
    struct Failure: Sendable {
        /// The server's SQLSTATE, when the server refused the connection.
        var sqlState: String?
        /// PostgresNIO's error code (`server`, `connectionError`, `sslUnsupported`…), when the
        /// error was a `PSQLError`.
        var code: String?
        /// Whether TLS refused the server's certificate (not issued by an authority this client
        /// trusts, or for another name).
        var certificateRefused: Bool
        /// When it was seen.
        var at: ContinuousClock.Instant
    }

    private let last = Mutex<Failure?>(nil)

    /// The last failure seen after `instant`, if any.
    func failure(since instant: ContinuousClock.Instant) -> Failure? {
        last.withLock { failure in
            guard let failure, failure.at >= instant else { return nil }
            return failure
        }
    }

    /// A logger for `PostgresClient(configuration:eventLoopGroup:backgroundLogger:)` that feeds
    /// this log.
    var logger: Logger {
        Logger(label: "AuthPostgresStore.pool") { _ in Handler(log: self) }
    }

    /// Keeps a "Connection creation failed" line's error.
    fileprivate func record(_ rendered: String) {
        let failure = Failure(sqlState: Self.field("sqlState: ", in: rendered, length: 5), code: Self.code(in: rendered), certificateRefused: ["CERTIFICATE_VERIFY_FAILED", "failedToValidateHostname", "unableToValidateCertificate"].contains { rendered.contains($0) }, at: .now)
        last.withLock { $0 = failure }
    }

    /// The `length` characters after `label` in `text`.
    private static func field(_ label: String, in text: String, length: Int) -> String? {
        guard let range = text.range(of: label) else { return nil }
        let value = text[range.upperBound...].prefix(length)
        return value.count == length ? String(value) : nil
    }

    /// `PSQLError(code: <code>, …`'s code.
    private static func code(in text: String) -> String? {
        guard let range = text.range(of: "PSQLError(code: ") else { return nil }
        return String(text[range.upperBound...].prefix { $0.isLetter || $0.isNumber })
    }

    private struct Handler: LogHandler {
        let log: ConnectFailureLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            guard event.message.description == "Connection creation failed", let error = event.metadata?["psql_error"] else { return }
            log.record("\(error)")
        }
    }
}
