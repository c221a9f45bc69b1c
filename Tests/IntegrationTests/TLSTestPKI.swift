// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Crypto
import Foundation
import SwiftASN1
import X509

/// Certificates made for one test with swift-certificates: a CA, server certificates for
/// 127.0.0.1 it issued, client certificates it issued, and a self-signed client certificate.
struct TLSTestPKI {
    /// A certificate and its key, as PEM text.
    struct Issued {
        let certificatePEM: String
        let keyPEM: String
        /// The DER `SubjectPublicKeyInfo` of the key.
        let subjectPublicKeyInfo: Data
        /// The DER certificate.
        let der: [UInt8]

        /// The key's pin (base64 SHA-256 of the SPKI).
        var pin: String { CertificatePinning.pin(ofSubjectPublicKeyInfo: subjectPublicKeyInfo) }
        /// The RFC 8705 thumbprint of the certificate.
        var thumbprint: String { CertificateBinding.thumbprint(ofCertificate: der) }
    }

    let caKey = P256.Signing.PrivateKey()
    let caName: DistinguishedName
    let ca: Certificate

    init(name: String = "AuthKit Test CA") throws {
        caName = try DistinguishedName { CommonName(name) }
        let now = Date()
        ca = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(caKey.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 86_400, issuer: caName, subject: caName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(caKey)
        )
    }

    /// The CA certificate as PEM.
    var caPEM: String { get throws { try ca.serializeAsPEM().pemString } }

    /// A server certificate for 127.0.0.1 and `localhost`, with a fresh key, issued by the CA.
    func server() throws -> Issued {
        try issue(commonName: "127.0.0.1", usage: .serverAuth, names: [
            .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])), .dnsName("localhost"),
        ])
    }

    /// A client certificate whose subject's common name is `clientID`, issued by the CA.
    func client(_ clientID: String) throws -> Issued {
        try issue(commonName: clientID, usage: .clientAuth, names: [])
    }

    /// A self-signed client certificate whose subject's common name is `clientID`.
    static func selfSignedClient(_ clientID: String) throws -> Issued {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName(clientID) }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 86_400, issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.clientAuth])
            },
            issuerPrivateKey: Certificate.PrivateKey(key)
        )
        return try Self.issued(certificate, key)
    }

    private func issue(commonName: String, usage: ExtendedKeyUsage.Usage, names: [GeneralName]) throws -> Issued {
        let key = P256.Signing.PrivateKey()
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 86_400, issuer: caName,
            subject: try DistinguishedName { CommonName(commonName) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([usage])
                if !names.isEmpty { SubjectAlternativeNames(names) }
            },
            issuerPrivateKey: Certificate.PrivateKey(caKey)
        )
        return try Self.issued(certificate, key)
    }

    private static func issued(_ certificate: Certificate, _ key: P256.Signing.PrivateKey) throws -> Issued {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return Issued(
            certificatePEM: try certificate.serializeAsPEM().pemString,
            keyPEM: key.pemRepresentation,
            subjectPublicKeyInfo: key.publicKey.derRepresentation,
            der: serializer.serializedBytes
        )
    }
}
