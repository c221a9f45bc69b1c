// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// A worker process for the cross-process tests: it opens a shared credential store and acts for
// one account against an AuthTestServer, as another process (or machine) of the same app would.
//
// usage: auth-store-worker <sqlite|file|postgres> <store path or postgres:// URL> <server base URL> <namespace> <account> <action>
//   <count>   sends <count> concurrent requests to `/me` with the OAuth 2.0 refresher; prints
//             `ok <successes>` and exits 0 when all succeeded.
//   signin    signs the account in with the server's password flow (the account name is the user
//             name, the password the test harness's); prints `signed-in`.
//   adopt     signs the account in with the token response in AUTHKIT_WORKER_TOKEN_RESPONSE
//             (obtained from another provider); prints `signed-in`.
//   signout   signs the account out; prints `signed-out`.
//   serve     keeps one session and reads commands on standard input: `go <count>` sends <count>
//             concurrent requests and prints `ok <count>` or `fail <successes> <failures>`
//             (each distinct failure once: an AuthError's code, `status <n>`, or a type name);
//             `pause before <ms>` / `pause after <ms>` makes every later renewal print
//             `renewing <pid>` (before presenting the refresh token) or `renewed <pid>` (after
//             the token endpoint answered, before the result is written) and wait <ms> there;
//             `pause off` ends that; `quit` ends. Prints `ready` first.
// With AUTHKIT_WORKER_RENEWAL_PAUSE_MS set, every renewal pauses before presenting, as
// `pause before <ms>` does.
// The provider is AuthTestServer unless these say otherwise: AUTHKIT_WORKER_TOKEN_PATH (the token
// endpoint's path, `auth/refresh`), AUTHKIT_WORKER_CLIENT_ID (`worker`), AUTHKIT_WORKER_ME_PATH
// (the resource, `me`).
// Any failure prints `error <description>` and exits 1.
import AuthCore
import AuthFileStore
import AuthHTTPClient
import AuthMFA
import AuthOAuth2
import AuthPostgresStore
import AuthSQLiteStore
import Foundation
import HTTPTypes
import Synchronization

let arguments = CommandLine.arguments
guard arguments.count == 7, let base = URL(string: arguments[3]) else {
    FileHandle.standardError.write(Data("usage: auth-store-worker <sqlite|file|postgres> <store path or URL> <server URL> <namespace> <account> <count|signin|adopt|signout|serve>\n".utf8))
    exit(2)
}

@Sendable func say(_ line: String) {
    FileHandle.standardOutput.write(Data("\(line)\n".utf8))
}

let environment = ProcessInfo.processInfo.environment
let resource = base.appending(path: environment["AUTHKIT_WORKER_ME_PATH"] ?? "me")

/// Sends `count` concurrent requests to the resource: `ok <count>`, or
/// `fail <successes> <failures>` (each distinct failure once, comma-separated).
func burst(_ client: AccountClient<BearerStrategy>, _ count: Int) async -> String {
    let outcomes = await withTaskGroup(of: String?.self) { group in
        for _ in 0..<count {
            group.addTask {
                do {
                    let status = try await client.send(.get, resource).status.code
                    return status == 200 ? nil : "status \(status)"
                } catch let error as AuthError {
                    return error.code.description
                } catch {
                    return "\(type(of: error))"
                }
            }
        }
        return await group.reduce(into: [String?]()) { $0.append($1) }
    }
    let failures = outcomes.compactMap { $0 }
    return failures.isEmpty ? "ok \(count)" : "fail \(count - failures.count) \(Set(failures).sorted().joined(separator: ","))"
}

/// Where renewals pause (`pause before|after <ms>`), if they do.
let pause = Mutex<(step: String, duration: Duration)?>(
    environment["AUTHKIT_WORKER_RENEWAL_PAUSE_MS"].flatMap(Int.init).map { ("before", .milliseconds($0)) })

/// Announces a renewal at `step` and waits there, when renewals pause at that step.
@Sendable func pauseIfAsked(at step: String) async throws {
    guard let (at, duration) = pause.withLock({ $0 }), at == step else { return }
    say("\(step == "before" ? "renewing" : "renewed") \(getpid())")
    try await Task.sleep(for: duration)
}

/// Standard input's lines, read on a thread of their own.
func commands() -> AsyncStream<String> {
    AsyncStream { continuation in
        Thread.detachNewThread {
            while let line = readLine() { continuation.yield(line) }
            continuation.finish()
        }
    }
}

do {
    let line = try await HTTPClientTransport.withTransport { transport in
        let container = AuthContainer()
        container.useHTTPClient(transport)
        switch arguments[1] {
        case "sqlite": try await container.useSQLiteStore(at: arguments[2])
        case "postgres":
            guard let configuration = try PostgresCredentialStore.configuration(url: arguments[2]) else { return "error not a postgres:// URL" }
            try await container.usePostgresStore(configuration)
        default: try container.useFileStore(at: URL(fileURLWithPath: arguments[2]))
        }
        let oauth = OAuth2RefreshTokenRefresher(
            tokenEndpoint: base.appending(path: environment["AUTHKIT_WORKER_TOKEN_PATH"] ?? "auth/refresh"),
            clientID: environment["AUTHKIT_WORKER_CLIENT_ID"] ?? "worker", transport: transport)
        let refresher = ClosureTokenRefresher { tokens in
            try await pauseIfAsked(at: "before")
            let renewed = try await oauth.refresh(tokens)
            try await pauseIfAsked(at: "after")
            return renewed
        }
        let strategy = BearerStrategy(allowedHosts: AllowedHosts(origin: base), refresher: refresher)
        let client = container.makeClient(for: AccountKey(namespace: arguments[4], account: arguments[5]), strategy: strategy)
        switch arguments[6] {
        case "signin":
            let signIn = PasswordSignIn(loginURL: base.appending(path: "auth/login"), verifyURL: base.appending(path: "auth/mfa/verify"), transport: transport)
            try await client.signIn(try await signIn.signIn(username: arguments[5], password: "correct horse battery staple"))
            return "signed-in"
        case "adopt":
            // Tokens obtained elsewhere (a provider's token response in AUTHKIT_WORKER_TOKEN_RESPONSE).
            let response = Data((environment["AUTHKIT_WORKER_TOKEN_RESPONSE"] ?? "").utf8)
            try await client.signIn(try TokenResponse.parse(response).tokenSet(issuedAt: Date()))
            return "signed-in"
        case "signout":
            try await client.signOut()
            return "signed-out"
        case "serve":
            say("ready")
            for await command in commands() {
                if command == "quit" { break }
                if command.hasPrefix("go "), let count = Int(command.dropFirst(3)) { say(await burst(client, count)) }
                let words = command.split(separator: " ")
                if words.first == "pause" {
                    let milliseconds = words.count == 3 ? Int(words[2]) : nil
                    pause.withLock { $0 = milliseconds.map { (String(words[1]), .milliseconds($0)) } }
                }
            }
            return "bye"
        default:
            // The whole line, failures included: "fail 0" alone left a CI failure unexplained.
            return await burst(client, Int(arguments[6]) ?? 0)
        }
    }
    say(line)
    exit(line.hasPrefix("fail") || line.hasPrefix("error") ? 1 : 0)
} catch {
    say("error \(error)")
    exit(1)
}
