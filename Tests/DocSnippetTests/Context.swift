// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// The names the doc comments' examples assume, with the types they have there. The examples are
// compiled, not run, so the values are never evaluated; the exception is the conformance example,
// a test suite of its own, which runs against `MyStore` and `temporaryURL()` below.
import AuthCache
import AuthCookie
import AuthCore
import AuthFileStore
import AuthHTTPClient
import AuthMFA
import AuthMigration
import AuthOAuth2
import AuthSQLiteStore
import AuthSigning
import AuthTestServer
import AuthTesting
import Crypto
import CryptoExtras
import Foundation
import Hummingbird
import Logging
import OpenAPIRuntime

private func given<T>() -> T { fatalError("doc examples are compiled, not run") }

var accessToken: String { given() }
var account: AccountKey { given() }
var alice: AccountKey { given() }
var authentication: any Middleware { given() }
var challengeID: String { given() }
var clock: any AuthClock { given() }
var cluster: PostgresTestCluster { given() }
var router: Router<BasicRequestContext> { given() }
var publicKeyPEM: String { given() }
var chainPEM: String { given() }
var keyPEM: String { given() }
var currentKeyPin: String { given() }
var backupKeyPin: String { given() }
var secretAccessKey: String { given() }
var sessionToken: String { given() }
var sharedSecret: Data { given() }
var sigV4: SigV4Signer { given() }
var storedCounter: UInt64 { get { given() } set {} }
var totp: TOTP { given() }
var aliceKey: AccountKey { given() }
var appSupport: URL { given() }
var base: URL { given() }
var baseURL: URL { given() }
var bearer: BearerStrategy { given() }
var body: Data { given() }
var cache: ResponseCache { given() }
var challenge: MFAChallenge { given() }
var cipher: any CredentialCipher { given() }
var client: AccountClient<BearerStrategy> { given() }
var code: String { given() }
var container: AuthContainer { given() }
var credentialStore: any CredentialStore { given() }
var credentials: AWSCredentials { given() }
var defaults: UserDefaults { given() }
var envelope: Envelope { given() }
var events: AuthEvents { given() }
var fieldValue: String { given() }
var head: HTTPRequest { given() }
var home: URL { given() }
var hosts: AllowedHosts { given() }
var jar: CookieJar { given() }
var key: SymmetricKey { given() }
var keyFromKeychainOrKMS: Data { given() }
var keyFromTheKeychainOrASecretsManager: Data { given() }
var keys: [String: MessageVerificationKey] { given() }
var logger: Logger { given() }
var migration: StoreMigration { given() }
var migrator: RecordMigrator { given() }
var myStore: any CredentialStore { given() }
var newPath: String { given() }
var now: Date { given() }
var old: URL { given() }
var oldStore: any CredentialStore { given() }
var password: String { given() }
var path: String { given() }
var privateKey: Curve25519.Signing.PrivateKey { given() }
var provider: any MFACodeProvider { given() }
var raw: Data { given() }
var request: AuthRequest { get { given() } set {} }
var response: AuthResponse { given() }
var retry: RetryMiddleware { given() }
var scannedText: String { given() }
var secret: OTPSecret { given() }
var secrets: TOTPSecretVault { given() }
var server: AuthTestServer { given() }
/// The OpenAPI transport an app already uses (AsyncHTTPClientTransport, URLSessionTransport).
var openAPITransport: any ClientTransport { given() }
var signer: any RequestSigner { given() }
var sqliteStore: SQLiteCredentialStore { given() }
var store: any CredentialStore { given() }
var strategy: BearerStrategy { given() }
var t: Date { given() }
var token: String { given() }
var tokenURL: URL { given() }
var tokens: BearerTokenSet { given() }
var transport: HTTPClientTransport { given() }
var url: URL { given() }
var userInput: String { given() }
var vault: CredentialVault { given() }
func askAgain() {}
func signIn() {}
func showQRCode(_ text: String) {}
func showSignIn(_ account: AccountKey) {}
func tellToWait(_ until: Date) {}
func promptUser(_ text: String) async throws -> String { given() }
func fetchStatus(_ url: URL) async throws -> Int { 200 }
func temporaryURL() -> URL { FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString) }
func addScopes(_ payload: Data) throws -> Data { payload }
func renameToken(_ payload: Data) throws -> Data { payload }

/// A credential type of the examples.
struct Profile: Credential {
    static let kind = "profile"
    var expiresAt: Date? { nil }
    func authorize(_ request: inout AuthRequest) {}
    var description: String { "Profile" }
}

/// A store of the conformance example: its records in memory.
final class MyStore: CredentialStore {
    private let inner = InMemoryCredentialStore()
    init(at url: URL) throws {}
    func get(_ key: CredentialKey) async throws -> Envelope? { try await inner.get(key) }
    func put(_ envelope: Envelope, for key: CredentialKey) async throws { try await inner.put(envelope, for: key) }
    func delete(_ key: CredentialKey) async throws { try await inner.delete(key) }
    func items(of account: AccountKey) async throws -> [String] { try await inner.items(of: account) }
    func accounts(in namespace: String) async throws -> [String] { try await inner.accounts(in: namespace) }
    func namespaces() async throws -> [String] { try await inner.namespaces() }
    func deleteAccount(_ account: AccountKey) async throws { try await inner.deleteAccount(account) }
    func deleteAll() async throws { try await inner.deleteAll() }
    func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) async throws -> Bool {
        try await inner.replace(key, ifCurrent: expected, with: envelope)
    }
}
var clientSecret: String { given() }
var oauthProvider: OAuth2Provider { given() }
var app: OAuth2Client { given() }
var callbackURL: URL { given() }
var aliceClient: AccountClient<BearerStrategy> { given() }
var idToken: String { given() }
var pending: PendingAuthorization { given() }
/// The OAuth 2.0 provider of the AuthOAuth2 article, and its service client.
var authServer: OAuth2Provider { given() }
var service: OAuth2Client { given() }
