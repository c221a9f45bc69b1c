// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import AuthHTTPClient
import AuthCore
import AuthMFA
import AuthOAuth2
import AuthTestServer
import Foundation
import HTTPTypes

/// `auth-demo login`: signs a user in and stores the tokens: with a password (and MFA), or
/// through an OAuth 2.0 provider in the browser (`--browser`) or from another device (`--device`).
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "login", abstract: "Sign in and store the tokens: a password (asks for an MFA code when needed), --browser or --device.")

    @OptionGroup var common: CommonOptions
    @Option(help: "The user name (the account the tokens are stored under).") var username: String
    @Option(help: "The password (asked for without echo when omitted; read from standard input when it is not a terminal).") var password: String?
    @Flag(help: "Register the user first.") var register = false
    @Option(help: "A base32 TOTP secret to answer an MFA challenge without asking.") var totpSecret: String?
    @Flag(help: "Sign in through the OAuth 2.0 provider at --server in your browser (a loopback redirect on 127.0.0.1, PKCE).") var browser = false
    @Flag(help: "Sign in through the OAuth 2.0 provider at --server from another device (the device grant).") var device = false
    @Option(help: "The OAuth 2.0 client id for --browser and --device.") var clientID = OAuth2TestClients.publicClientID

    func run() async throws {
        if browser || device { return try await providerSignIn() }
        guard let password = self.password ?? PasswordPrompt.read("password for \(username): "), !password.isEmpty else {
            throw ValidationError("no password given: pass --password or type it when asked")
        }
        let base = try common.baseURL
        try await common.withContainer { container, transport in
            if register {
                let body = try JSONEncoder().encode(["username": username, "password": password])
                let response = try await transport.send(AuthRequest(method: .post, url: base.appending(path: "auth/register"), headerFields: [.contentType: "application/json"], body: body))
                print("register: \(response.status.code)")
            }
            let codes: any MFACodeProvider
            if let totpSecret {
                codes = TOTPCodeProvider(totp: try TOTP(secret: OTPSecret(base32: totpSecret)))
            } else {
                codes = ClosureMFACodeProvider { _, method in
                    print("\(method.rawValue) code: ", terminator: "")
                    return readLine(strippingNewline: true) ?? ""
                }
            }
            let tokens = try await PasswordSignIn(loginURL: base.appending(path: "auth/login"), verifyURL: base.appending(path: "auth/mfa/verify"), transport: transport, codeProvider: codes).signIn(username: username, password: password)
            let client = container.makeClient(for: AccountKey(namespace: common.namespace, account: username), strategy: try common.bearer(transport))
            try await client.signIn(tokens)
            print("signed in as \(username); tokens stored in \(common.store)")
        }
    }

    /// `--browser` or `--device`: the provider at `--server`, discovered from it as issuer.
    private func providerSignIn() async throws {
        let base = try common.baseURL
        try await common.withContainer { container, transport in
            let app = OAuth2Client(provider: OAuth2Provider(issuer: base, transport: transport), clientID: clientID, transport: transport)
            let tokens: BearerTokenSet
            if browser {
                tokens = try await app.signInWithBrowser(scopes: ["openid", "read"]) { url in
                    print("Open this URL in your browser to sign in:\n  \(url.absoluteString)")
                }
            } else {
                let authorization = try await app.startDeviceAuthorization(scopes: ["read"])
                print("On another device, go to \(authorization.verificationURI.absoluteString) and enter \(authorization.userCode)")
                tokens = try await app.pollDeviceAuthorization(authorization) { progress in
                    if case .slowedDown(let interval) = progress { print("  (the provider asked to poll every \(interval))") }
                }
            }
            let strategy = BearerStrategy(allowedHosts: AllowedHosts(origin: base, allowInsecure: base.scheme == "http"), refresher: app)
            let client = container.makeClient(for: AccountKey(namespace: common.namespace, account: username), strategy: strategy)
            try await client.signIn(tokens)
            print("signed in as \(username) through the provider; tokens stored in \(common.store)")
        }
    }
}
