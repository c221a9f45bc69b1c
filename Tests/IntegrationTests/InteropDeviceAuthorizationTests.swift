// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthOAuth2
import AuthTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// The device authorization grant (RFC 8628) against Authlib's server (`Interop/authlib_provider.py`,
/// interval 1 s, codes valid 60 s), the user's answer given through the peer's `/_device/decide`.
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct InteropDeviceAuthorizationTests {
    static func decide(_ device: DeviceAuthorization, _ decision: String, peer: InteropPeer, transport: any Transport) async throws {
        let body = FormURLEncoding.body([("user_code", device.userCode), ("decision", decision)])
        _ = try await transport.send(AuthRequest(method: .post, url: peer.url("_device/decide"), headerFields: [.contentType: "application/x-www-form-urlencoded"], body: body))
    }

    final class Progress: Sendable {
        let seen = Mutex<[DeviceAuthorizationProgress]>([])
        func record(_ progress: DeviceAuthorizationProgress) { seen.withLock { $0.append(progress) } }
        var all: [DeviceAuthorizationProgress] { seen.withLock { $0 } }
    }

    @Test func theUserApprovesOnAnotherDeviceWhileTheClientPolls() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let app = OAuth2Client(provider: try InteropOAuth2ProviderTests.provider(peer, transport: transport), clientID: "app", transport: transport)
                let device = try await app.startDeviceAuthorization(scopes: ["read"])
                #expect(device.verificationURI == peer.url("device"))
                #expect(device.verificationURIComplete?.absoluteString.contains(device.userCode) == true)
                #expect(device.interval == .seconds(1))
                #expect(!"\(device)".contains(device.deviceCode.reveal))
                // The user approves once the client was told to wait (not after a fixed time,
                // which a loaded machine's first poll could outlast).
                let progress = Progress()
                let tokens = try await app.pollDeviceAuthorization(device) { update in
                    progress.record(update)
                    if progress.all.count == 1 {
                        Task { try await Self.decide(device, "approve", peer: peer, transport: transport) }
                    }
                }
                #expect(progress.all.first == .pending(nextPollIn: .seconds(1)))
                let counters = try await peer.counters(transport)
                #expect(counters["slow_down"] == 0)  // the interval was honoured
                #expect(counters["device_polls"] == progress.all.count + 1)
                let me = try await transport.send(AuthRequest(method: .get, url: peer.url("api/me"), headerFields: [.authorization: "Bearer \(tokens.accessToken.reveal)"]))
                #expect(try JSONDecoder().decode(PeerSubject.self, from: me.body).sub == "alice")
            }
        }
    }

    @Test func aRefusalIsATypedFailure() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let app = OAuth2Client(provider: try InteropOAuth2ProviderTests.provider(peer, transport: transport), clientID: "app", transport: transport)
                let device = try await app.startDeviceAuthorization(scopes: ["read"])
                try await Self.decide(device, "deny", peer: peer, transport: transport)
                await #expect { try await app.pollDeviceAuthorization(device) } throws: { error in
                    (error as? AuthError)?.code == .authorizationFailed && ((error as? AuthError)?.underlying as? OAuth2Error)?.code == "access_denied"
                }
            }
        }
    }

    /// A clock whose sleeps return at once polls faster than the server allows: each
    /// `slow_down` adds 5 s to the interval, and the code's lifetime (240 s) ends the polling.
    /// The server's interval is 20 s, so that a poll that a loaded machine delays by seconds is
    /// still too fast (at 1 s it was not, once in CI; at 5 s, once more, at the start of a full
    /// run, with a 60 s lifetime).
    @Test func slowDownAddsFiveSecondsAndTheCodesLifetimeEndsPolling() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300, arguments: ["--device-interval", "20", "--device-expires", "240"]) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let clock = ManualClock()
                let app = OAuth2Client(provider: try InteropOAuth2ProviderTests.provider(peer, transport: transport), clientID: "app", transport: transport, clock: clock)
                let device = try await app.startDeviceAuthorization(scopes: ["read"])
                let progress = Progress()
                await #expect { try await app.pollDeviceAuthorization(device) { progress.record($0) } } throws: { error in
                    (error as? AuthError)?.code == .authorizationFailed && (error as? AuthError)?.message.contains("expired") == true
                }
                #expect(Array(clock.sleeps.prefix(4)) == [.seconds(20), .seconds(20), .seconds(25), .seconds(30)])
                #expect(progress.all.prefix(3) == [.pending(nextPollIn: .seconds(20)), .slowedDown(interval: .seconds(25)), .slowedDown(interval: .seconds(30))])
                #expect(clock.sleeps.reduce(.zero, +) > .seconds(240))
                #expect(try await peer.counters(transport)["slow_down"] >= 3)
            }
        }
    }

    @Test func cancellingStopsPolling() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let app = OAuth2Client(provider: try InteropOAuth2ProviderTests.provider(peer, transport: transport), clientID: "app", transport: transport)
                let device = try await app.startDeviceAuthorization(scopes: ["read"])
                let polling = Task { try await app.pollDeviceAuthorization(device) }
                try await Task.sleep(for: .milliseconds(100))
                polling.cancel()
                await #expect(throws: CancellationError.self) { try await polling.value }
                #expect(try await peer.counters(transport)["device_polls"] == 0)
            }
        }
    }
}
