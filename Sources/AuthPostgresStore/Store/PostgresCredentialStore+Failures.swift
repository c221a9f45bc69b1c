// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import PostgresNIO

extension PostgresCredentialStore {
    /// Runs `body`, turning what the database or the network throws into a `CredentialStoreError`
    /// typed by its cause (``storeError(for:while:)``); a `CredentialStoreError` and a
    /// cancellation pass as they are.
    static func classifyingFailures<T>(_ what: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw storeError(for: error, while: what)
        }
    }

    /// What `error`, thrown while `what`, is for a caller: by the server's SQLSTATE (its class, or
    /// the code itself) or by PostgresNIO's error code. The message names the operation and the
    /// SQLSTATE, never a value (the server's own message may quote one, so it is left out).
    ///
    /// - `.unavailable` (may pass): connection refused, closed or lost, a timeout, class 08
    ///   (connection exception), 57P01/57P02/57P03 (the server shutting down or starting), class 53
    ///   (insufficient resources), 40001/40P01 (serialization failure, deadlock), class 55 (lock not
    ///   available), anything not known to be otherwise;
    /// - `.readOnly` (may pass): 25006, a read-only transaction (a hot standby, a failover);
    /// - `.misconfigured`: class 28 (authentication), 42501 (a privilege missing), 3D000 (no such
    ///   database), 3F000 (no such schema), 42P01 (a table missing) and the rest of class 42,
    ///   class 0A; TLS or an authentication method the server and this client do not share;
    /// - `.invalidArgument`: class 22 (data exception, such as 22001 a value too long), class 54
    ///   (a program limit, such as 54000), class 23, too many bind parameters.
    static func storeError(for error: any Error, while what: String) -> any Error {
        switch error {
        case let error as CredentialStoreError:
            return error
        case is CancellationError:
            return error
        case let error as PostgresTransactionError:
            if let inner = error.closureError as? CredentialStoreError { return inner }
            if error.closureError is CancellationError { return CancellationError() }
            let failure = error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError
            guard let failure else { return CredentialStoreError.unavailable("the PostgreSQL store failed while \(what): the transaction did not complete") }
            return storeError(for: failure, while: what)
        case let error as PSQLError:
            return storeError(for: error, while: what)
        default:
            return CredentialStoreError.unavailable("the PostgreSQL store failed while \(what): \(type(of: error))")
        }
    }

    private static func storeError(for error: PSQLError, while what: String) -> CredentialStoreError {
        let prefix = "the PostgreSQL store failed while \(what)"
        guard error.code == .server, let state = error.serverInfo?[.sqlState] else {
            return storeError(forClientCode: "\(error.code)", prefix: prefix)
        }
        return storeError(sqlState: state, prefix: prefix)
    }

    /// What an operation that found no connection within `timeout` is, by why the pool last
    /// failed to open one (``ConnectFailureLog``): a refusal that will not pass (a wrong password,
    /// a database that does not exist) is `.misconfigured`; otherwise `.unavailable`.
    static func storeError(timedOut timeout: Duration, while what: String, lastConnectFailure failure: ConnectFailureLog.Failure?) -> CredentialStoreError {
        let prefix = "the PostgreSQL store did not answer within \(timeout) while \(what)"
        guard let failure else { return .unavailable(prefix) }
        let cause = "the PostgreSQL store could not connect while \(what)"
        if let state = failure.sqlState { return storeError(sqlState: state, prefix: cause) }
        if failure.certificateRefused {
            return .misconfigured("\(cause): TLS refused the server's certificate (not issued by the trusted authority, sslrootcert, or not for this host name)")
        }
        if let code = failure.code { return storeError(forClientCode: code, prefix: cause) }
        return .unavailable(cause + " (the server unreachable)")
    }

    private static func storeError(sqlState state: String, prefix: String) -> CredentialStoreError {
        let suffix = " (SQLSTATE \(state))"
        let stateClass = state.prefix(2)
        switch state {
        case "25006":
            return .readOnly("\(prefix): the server accepts no writes now (a read-only transaction: a hot standby, or a failover in progress)\(suffix)")
        case "57P01", "57P02", "57P03":
            return .unavailable("\(prefix): the server is shutting down or starting\(suffix)")
        case "40001", "40P01":
            return .unavailable("\(prefix): the transaction conflicted with another one\(suffix)")
        case "42501":
            return .misconfigured("\(prefix): the role lacks a privilege the store needs (a role that may only read opens with PostgresStoreOptions.readOnly)\(suffix)")
        case "3D000":
            return .misconfigured("\(prefix): the database does not exist\(suffix)")
        case "3F000":
            return .misconfigured("\(prefix): the schema does not exist\(suffix)")
        case "42P01":
            return .misconfigured("\(prefix): a table of the store does not exist (migrate by opening the store without readOnly, with a role that may create tables)\(suffix)")
        default:
            break
        }
        switch stateClass {
        case "08":
            return .unavailable("\(prefix): the connection failed\(suffix)")
        case "53":
            return .unavailable("\(prefix): the server lacks resources (connections, memory or disk)\(suffix)")
        case "55", "57", "58", "XX", "25", "40":
            return .unavailable("\(prefix)\(suffix)")
        case "28":
            return .misconfigured("\(prefix): the server refused the credentials or the role (authentication)\(suffix)")
        case "42", "0A", "3F", "3D":
            return .misconfigured("\(prefix): the store's statements do not fit the database (a schema, privilege or version mismatch)\(suffix)")
        case "22", "54", "23":
            return .invalidArgument("\(prefix): the server refused a value (too long, out of range or malformed)\(suffix)")
        default:
            return .unavailable("\(prefix)\(suffix)")
        }
    }

    /// By PostgresNIO's error code (its description: `sslUnsupported`, `connectionError`…).
    private static func storeError(forClientCode code: String, prefix: String) -> CredentialStoreError {
        switch code {
        case "sslUnsupported", "failedToAddSSLHandler", "receivedUnencryptedDataAfterSSLRequest":
            return .misconfigured("\(prefix): TLS was required but not established (\(code))")
        case "unsupportedAuthMechanism", "authMechanismRequiresPassword", "saslError":
            return .misconfigured("\(prefix): the server asks for authentication this client cannot give (\(code))")
        case "tooManyParameters":
            return .invalidArgument("\(prefix): too many values in one statement (\(code))")
        default:
            // Connection closed, lost or refused, a cancelled query, a closed pool, a decoding
            // or protocol failure.
            return .unavailable("\(prefix): \(code)")
        }
    }

    /// The SQLSTATE of a server error, also inside a transaction's error.
    static func sqlState(of error: any Error) -> String? {
        if let transaction = error as? PostgresTransactionError {
            return (transaction.closureError ?? transaction.beginError ?? transaction.commitError).flatMap(sqlState(of:))
        }
        return (error as? PSQLError)?.serverInfo?[.sqlState]
    }
}
