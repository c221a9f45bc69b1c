// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import NIOSSL

/// A client certificate chain and its private key, presented to servers that ask for one
/// (mutual TLS, RFC 8705).
///
/// Its `description` names the leaf's thumbprint, never the key.
///
/// ```swift
/// let identity = try TLSClientIdentity(certificateChainPEM: chainPEM, privateKeyPEM: keyPEM)
/// let tls = try TransportTLS(clientIdentities: [Origin(scheme: "https", host: "mtls.example.com"): identity])
/// ```
public struct TLSClientIdentity: Sendable, CustomStringConvertible, CustomReflectable {
    /// The chain, leaf first.
    public let certificateChain: [NIOSSLCertificate]
    /// The leaf's private key.
    public let privateKey: NIOSSLPrivateKey
    /// The leaf's RFC 8705 thumbprint (`x5t#S256`): the one a bound token must name.
    public let thumbprint: String

    /// An identity from NIOSSL values.
    /// - Parameters:
    ///   - certificateChain: The chain, leaf first.
    ///   - privateKey: The leaf's private key.
    /// - Throws: `AuthError` code `.misconfigured` when the chain is
    ///   empty or the leaf cannot be serialized.
    public init(certificateChain: [NIOSSLCertificate], privateKey: NIOSSLPrivateKey) throws(AuthError) {
        guard let leaf = certificateChain.first, let der = try? leaf.toDERBytes() else {
            throw AuthError(code: .misconfigured, message: "the client certificate chain is empty or unreadable: give the leaf certificate first")
        }
        self.certificateChain = certificateChain
        self.privateKey = privateKey
        self.thumbprint = CertificateBinding.thumbprint(ofCertificate: der)
    }

    /// An identity from PEM text: the chain (leaf first) and the key, as a PKCS#8
    /// `PRIVATE KEY`, or a `EC PRIVATE KEY` / `RSA PRIVATE KEY` block.
    /// - Parameters:
    ///   - certificateChainPEM: One or more `CERTIFICATE` blocks, leaf first.
    ///   - privateKeyPEM: The leaf's private key.
    /// - Throws: `AuthError` code `.misconfigured` saying which part
    ///   could not be read (never quoting it).
    public init(certificateChainPEM: String, privateKeyPEM: String) throws(AuthError) {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(Array(certificateChainPEM.utf8))
        } catch {
            throw AuthError(code: .misconfigured, message: "the client certificate chain is not PEM CERTIFICATE blocks")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
        } catch {
            throw AuthError(code: .misconfigured, message: "the client private key is not a PEM PRIVATE KEY (PKCS#8), EC PRIVATE KEY or RSA PRIVATE KEY block")
        }
        try self.init(certificateChain: chain, privateKey: key)
    }

    /// An identity from a PEM chain and a DER PKCS#8 private key.
    /// - Parameters:
    ///   - certificateChainPEM: One or more `CERTIFICATE` blocks, leaf first.
    ///   - pkcs8PrivateKey: The leaf's private key, DER-encoded PKCS#8.
    /// - Throws: `AuthError` code `.misconfigured`.
    public init(certificateChainPEM: String, pkcs8PrivateKey: [UInt8]) throws(AuthError) {
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(bytes: pkcs8PrivateKey, format: .der)
        } catch {
            throw AuthError(code: .misconfigured, message: "the client private key is not DER PKCS#8")
        }
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(Array(certificateChainPEM.utf8))
        } catch {
            throw AuthError(code: .misconfigured, message: "the client certificate chain is not PEM CERTIFICATE blocks")
        }
        try self.init(certificateChain: chain, privateKey: key)
    }

    /// The leaf's thumbprint and the chain's length; never the key.
    public var description: String { "TLSClientIdentity(x5t#S256 \(thumbprint), \(certificateChain.count) certificate(s))" }

    /// The thumbprint and the chain's length, so that `dump` does not walk into the key.
    public var customMirror: Mirror {
        Mirror(self, children: ["thumbprint": thumbprint, "certificates": certificateChain.count], displayStyle: .struct)
    }
}
