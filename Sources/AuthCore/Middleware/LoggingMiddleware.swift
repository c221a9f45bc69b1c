// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes
public import Logging

/// Logs each request and response through the caller's `Logger`, with secrets redacted.
///
/// At `debug`: one line per request and per response (method, URL with secret query values
/// redacted, status, byte counts). At `trace`: also the header fields, with the values of secret
/// fields replaced by `<redacted>`: ``SecretFieldNames/standard`` (`Authorization`, cookies, API-key
/// and signature headers…), the names given here (a container passes its
/// `container.markSecret(_:)` names), and the names each request marks (a credential that
/// writes under a header or query name of its own marks it). Bodies are never logged. Nothing
/// is formatted when the logger's level is above `debug`. An observer (``ObservingMiddleware``):
/// each line reads the logger's level when it is due, so a level changed while a request is in
/// flight may log its response without its request, or the other way round.
public struct LoggingMiddleware: ObservingMiddleware {
    private let logger: Logger
    private let secretFields: SecretFieldNames

    /// Creates the middleware.
    /// - Parameters:
    ///   - logger: The caller's logger; its level decides what is logged.
    ///   - secretFields: Header and query item names to redact besides ``SecretFieldNames/standard``
    ///     and the names each request marks (``RequestOptions/secretFields``).
    public init(logger: Logger, secretFields: SecretFieldNames = SecretFieldNames()) {
        self.logger = logger
        self.secretFields = SecretFieldNames.standard.union(secretFields)
    }

    /// Creates the middleware with extra names to redact (case-insensitive).
    public init(logger: Logger, extraSensitiveHeaders: Set<String>, extraSensitiveQueryItems: Set<String> = []) {
        self.init(logger: logger, secretFields: SecretFieldNames(headers: extraSensitiveHeaders, queryItems: extraSensitiveQueryItems))
    }

    /// Logs the request.
    public func willSend(_ request: AuthRequest) {
        guard logger.logLevel <= .debug else { return }
        let secrets = secrets(of: request)
        var metadata: Logger.Metadata = ["method": "\(request.head.method)", "url": "\(target(of: request, secrets))", "bytes": "\(request.body.count)"]
        if logger.logLevel <= .trace { metadata["headers"] = Self.redacted(request.head.headerFields, secrets) }
        logger.debug("request", metadata: metadata)
    }

    /// Logs the response.
    public func didReceive(_ response: AuthResponse, for request: AuthRequest) {
        guard logger.logLevel <= .debug else { return }
        let secrets = secrets(of: request)
        var metadata: Logger.Metadata = ["url": "\(target(of: request, secrets))", "status": "\(response.status.code)", "bytes": "\(response.body.count)"]
        if logger.logLevel <= .trace { metadata["headers"] = Self.redacted(response.head.headerFields, secrets) }
        logger.debug("response", metadata: metadata)
    }

    /// Logs the failure.
    public func didFail(_ error: any Error, for request: AuthRequest) {
        guard logger.logLevel <= .debug else { return }
        logger.debug("request failed", metadata: ["url": "\(target(of: request, secrets(of: request)))", "error": "\(error)"])
    }

    // The hooks share no state, so the response and failure lines redact the URL again: work
    // done only when the logger is at `debug` or below, for lines that stand on their own when
    // requests interleave.
    private func secrets(of request: AuthRequest) -> SecretFieldNames {
        request.options.secretFields.isEmpty ? secretFields : secretFields.union(request.options.secretFields)
    }

    /// The request's URL with its authority's user information and secret query values redacted.
    private func target(of request: AuthRequest, _ secrets: SecretFieldNames) -> String {
        "\(request.head.scheme ?? "")://\(HTTPRedaction.authority(request.head.authority ?? ""))\(QueryItems.redacting(secrets.queryItemNames, in: request.head.path ?? "/"))"
    }

    private static func redacted(_ fields: HTTPFields, _ secrets: SecretFieldNames) -> Logger.MetadataValue {
        .dictionary(Dictionary(fields.map { field in
            (field.name.canonicalName, Logger.MetadataValue.string(HTTPRedaction.value(of: field, secrets: secrets)))
        }, uniquingKeysWith: { first, second in .string("\(first), \(second)") }))
    }
}
