// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import AuthCore
import NIOCore
import NIOSSL

/// Checks each new connection of a pinned host's `HTTPClient` against the host's pins, after the
/// TLS handshake and before AsyncHTTPClient hands the connection to a request.
///
/// AsyncHTTPClient's TLS handler has already validated the chain and the host name (a chain that
/// fails fails the handshake, and this never runs). AsyncHTTPClient awaits the connection
/// initializers (`http1_1ConnectionDebugInitializer`, `http2ConnectionDebugInitializer`) before
/// it gives the connection a request: a mismatch fails them, so the waiting request fails with
/// `AuthError` code `.pinMismatch` and nothing is written. The connection is then
/// closed, once AsyncHTTPClient has dropped it.
enum PinnedConnectionCheck {
    /// `configuration` with the check of `entry` run on every connection, before the initializers
    /// it already had.
    static func install(_ pinning: CertificatePinning, entry: CertificatePinning.Entry, in configuration: inout HTTPClient.Configuration) {
        let http1 = configuration.http1_1ConnectionDebugInitializer
        configuration.http1_1ConnectionDebugInitializer = { channel in
            check(channel, pinning, entry).flatMap { http1?(channel) ?? channel.eventLoop.makeSucceededVoidFuture() }
        }
        let http2 = configuration.http2ConnectionDebugInitializer
        configuration.http2ConnectionDebugInitializer = { channel in
            check(channel, pinning, entry).flatMap { http2?(channel) ?? channel.eventLoop.makeSucceededVoidFuture() }
        }
    }

    /// The check on `channel`'s event loop, where its TLS handler may be read.
    private static func check(_ channel: any Channel, _ pinning: CertificatePinning, _ entry: CertificatePinning.Entry) -> EventLoopFuture<Void> {
        guard channel.eventLoop.inEventLoop else {
            return channel.eventLoop.flatSubmit { check(channel, pinning, entry) }
        }
        do {
            try verify(channel, pinning, entry)
            return channel.eventLoop.makeSucceededVoidFuture()
        } catch {
            // AsyncHTTPClient forgets the connection when the failure reaches it; closing it after
            // that keeps its pool from hearing of a close of a connection it is still starting.
            channel.eventLoop.execute { channel.close(promise: nil) }
            return channel.eventLoop.makeFailedFuture(error)
        }
    }

    /// Throws unless the server's leaf certificate carries one of `entry`'s keys, or the pins do
    /// not apply (expired, report-only).
    private static func verify(_ channel: any Channel, _ pinning: CertificatePinning, _ entry: CertificatePinning.Entry) throws {
        let handler = try channel.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self)
        guard let leaf = handler.peerCertificate else {
            throw AuthError(code: .pinMismatch, message: "\(entry.pattern): the server presented no certificate to check against its pins; nothing was sent")
        }
        let spki: [UInt8]
        do {
            spki = try leaf.extractPublicKey().toSPKIBytes()
        } catch {
            throw AuthError(code: .pinMismatch, message: "\(entry.pattern): the server certificate's public key could not be read to check it against the pins; nothing was sent")
        }
        switch pinning.check(subjectPublicKeyInfo: spki, against: entry) {
        case .matched, .expired, .mismatch(enforced: false): return
        case .mismatch(enforced: true):
            let pin = CertificatePinning.pin(ofSubjectPublicKeyInfo: spki)
            throw AuthError(code: .pinMismatch, message: "\(entry.pattern): the server's key sha256/\(pin) is none of the host's pins, though its chain is valid; the connection was closed and nothing was sent")
        }
    }
}
