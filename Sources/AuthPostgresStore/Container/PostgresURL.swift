// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
public import PostgresNIO
import NIOSSL

extension PostgresCredentialStore {
    /// The connection a `postgres://user[:password]@host[:port]/database[?parameter=value&…]` URL
    /// names (also `postgresql://`; the port defaults to 5432; user and password are
    /// percent-decoded; an IPv6 host in brackets, `postgres://svc@[::1]:5432/auth`); nil when
    /// `string` is not such a URL.
    ///
    /// The parameters are libpq's, and mean what they mean there:
    /// - `sslmode`: `disable`, `allow` or `prefer` (the default: TLS when the server offers it),
    ///   `require` (TLS, the certificate not verified), `verify-ca` (TLS, the certificate verified
    ///   against the trust roots, not its name), `verify-full` (also its name).
    /// - `sslrootcert`: a file of PEM certificates (a private CA) the server's certificate is
    ///   verified against instead of the system's trust roots, or `system`. Without `sslmode` it
    ///   means `verify-full`; with `allow`, `prefer` or `require` the certificate is verified as
    ///   with `verify-ca` (as libpq does for `require`).
    /// - `host`: a host name, or a directory (an absolute path) holding the server's Unix socket
    ///   `.s.PGSQL.<port>`, as libpq takes it; it replaces the URL's host, which may then be empty
    ///   (`postgres://svc@/auth?host=/var/run/postgresql`). A socket has no TLS.
    /// - `port`: replaces the URL's port.
    /// - `application_name`: how the server lists the connections (`pg_stat_activity`), at most
    ///   63 bytes.
    /// - `connect_timeout`: how long one connection attempt may take, in whole seconds (at least 1).
    ///
    /// - Throws: `CredentialStoreError` `.invalidArgument` for a PostgreSQL URL without a user or
    ///   a host, with several hosts, or with a parameter it does not know or a value a parameter
    ///   cannot take, naming the parameter (the message never repeats the URL, which may hold a
    ///   password).
    public static func configuration(url string: String) throws -> PostgresClient.Configuration? {
        guard let components = URLComponents(string: string), let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme) else { return nil }
        func invalid(_ message: String) -> CredentialStoreError { .invalidArgument("a PostgreSQL URL \(message)") }
        guard let user = components.user, !user.isEmpty else {
            throw invalid("names a user and a host (postgres://user@host/database)")
        }
        var host = components.host ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }  // an IPv6 literal
        var port = components.port ?? 5432
        var sslmode: String?
        var rootCertificates: String?
        var applicationName: String?
        var connectTimeout: Duration?
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "sslmode":
                guard ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"].contains(value) else {
                    throw invalid("'s sslmode must be disable, allow, prefer, require, verify-ca or verify-full")
                }
                sslmode = value
            case "sslrootcert":
                guard value == "system" || FileManager.default.isReadableFile(atPath: value) else {
                    throw invalid("'s sslrootcert names no readable file (a PEM file of the CA certificates, or 'system')")
                }
                rootCertificates = value
            case "host":
                guard !value.isEmpty, !value.contains(",") else {
                    throw invalid("'s host parameter must name one host or one socket directory")
                }
                host = value
            case "port":
                guard let number = Int(value), (1...65_535).contains(number) else { throw invalid("'s port must be a number from 1 to 65535") }
                port = number
            case "application_name":
                guard value.utf8.count <= 63, !value.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 0x20 } == true }) else {
                    throw invalid("'s application_name must be at most 63 bytes, without control characters")
                }
                applicationName = value
            case "connect_timeout":
                guard let seconds = Int(value), seconds >= 1 else { throw invalid("'s connect_timeout must be a whole number of seconds, at least 1") }
                connectTimeout = .seconds(seconds)
            default:
                throw invalid("has a parameter this store does not know: '\(item.name.prefix(64))' (it reads sslmode, sslrootcert, host, port, application_name and connect_timeout)")
            }
        }
        guard !host.isEmpty else {
            throw invalid("names a user and a host (postgres://user@host/database, or a socket directory: ?host=/var/run/postgresql)")
        }
        if sslmode == "disable", rootCertificates != nil {
            throw invalid("asks for sslrootcert with sslmode=disable")
        }
        let path = components.path
        let database = path.isEmpty || path == "/" ? nil : String(path.dropFirst())
        var configuration: PostgresClient.Configuration
        if host.hasPrefix("/") {
            configuration = PostgresClient.Configuration(unixSocketPath: (host as NSString).appendingPathComponent(".s.PGSQL.\(port)"), username: user, password: components.password, database: database)
        } else {
            configuration = PostgresClient.Configuration(host: host, port: port, username: user, password: components.password, database: database, tls: tls(sslmode: sslmode, rootCertificates: rootCertificates))
        }
        if let applicationName { configuration.options.additionalStartupParameters.append(("application_name", applicationName)) }
        if let connectTimeout { configuration.options.connectTimeout = connectTimeout }
        return configuration
    }

    /// The TLS an `sslmode` and an `sslrootcert` ask for (both validated).
    private static func tls(sslmode: String?, rootCertificates: String?) -> PostgresClient.Configuration.TLS {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let rootCertificates, rootCertificates != "system" { configuration.trustRoots = .file(rootCertificates) }
        switch sslmode ?? (rootCertificates == nil ? "prefer" : "verify-full") {
        case "disable":
            return .disable
        case "allow", "prefer":
            if rootCertificates == nil { return .prefer(configuration) }
            configuration.certificateVerification = .noHostnameVerification
            return .prefer(configuration)
        case "require":
            configuration.certificateVerification = rootCertificates == nil ? .none : .noHostnameVerification
            return .require(configuration)
        case "verify-ca":
            configuration.certificateVerification = .noHostnameVerification
            return .require(configuration)
        default:  // verify-full
            return .require(configuration)
        }
    }
}
