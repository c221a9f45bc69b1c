// A worker process for the cross-process tests: it opens a shared credential store and acts for
// one account against an AuthTestServer, as another process (or machine) of the same app would.
//
// usage: auth-store-worker <sqlite|file|postgres> <store path or postgres:// URL> <server base URL> <namespace> <account> <action>
//   <count>   sends <count> concurrent requests to `/me` with the OAuth 2.0 refresher; prints
//             `ok <successes>` and exits 0 when all succeeded.
//   signin    signs the account in with the server's password flow (the account name is the user
//             name, the password the test harness's); prints `signed-in`.
//   signout   signs the account out; prints `signed-out`.
//   serve     keeps one session and reads commands on standard input: `go <count>` sends <count>
//             concurrent requests and prints `ok <count>` or `fail <successes> <first error>`;
//             `quit` ends. Prints `ready` first.
// With AUTHKIT_WORKER_RENEWAL_PAUSE_MS set, every renewal prints `renewing <pid>` once it holds
// the refresh lock and waits that long before presenting the refresh token.
// Any failure prints `error <description>` and exits 1.
import AuthCore
import AuthFileStore
import AuthHTTPClient
import AuthMFA
import AuthPostgresStore
import AuthSQLiteStore
import Foundation
import HTTPTypes

let arguments = CommandLine.arguments
guard arguments.count == 7, let base = URL(string: arguments[3]) else {
    FileHandle.standardError.write(Data("usage: auth-store-worker <sqlite|file|postgres> <store path or URL> <server URL> <namespace> <account> <count|signin|signout|serve>\n".utf8))
    exit(2)
}

@Sendable func say(_ line: String) {
    FileHandle.standardOutput.write(Data("\(line)\n".utf8))
}

/// Sends `count` concurrent requests to `/me`: `ok <count>`, or `fail <successes> <first error>`.
func burst(_ client: AccountClient<BearerStrategy>, _ count: Int) async -> String {
    let outcomes = await withTaskGroup(of: String?.self) { group in
        for _ in 0..<count {
            group.addTask {
                do {
                    let status = try await client.send(.get, base.appending(path: "me")).status.code
                    return status == 200 ? nil : "status \(status)"
                } catch {
                    return "\(error)".replacingOccurrences(of: "\n", with: " ")
                }
            }
        }
        return await group.reduce(into: [String?]()) { $0.append($1) }
    }
    let failures = outcomes.compactMap { $0 }
    return failures.isEmpty ? "ok \(count)" : "fail \(count - failures.count) \(failures[0])"
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
        let oauth = OAuth2RefreshTokenRefresher(tokenEndpoint: base.appending(path: "auth/refresh"), clientID: "worker", transport: transport)
        let pause = ProcessInfo.processInfo.environment["AUTHKIT_WORKER_RENEWAL_PAUSE_MS"].flatMap(Int.init)
        let refresher: any TokenRefresher = pause.map { milliseconds in
            ClosureTokenRefresher { tokens in
                say("renewing \(getpid())")
                try await Task.sleep(for: .milliseconds(milliseconds))
                return try await oauth.refresh(tokens)
            }
        } ?? oauth
        let strategy = BearerStrategy(allowedHosts: AllowedHosts(origin: base), refresher: refresher)
        let client = container.makeClient(for: AccountKey(namespace: arguments[4], account: arguments[5]), strategy: strategy)
        switch arguments[6] {
        case "signin":
            let signIn = PasswordSignIn(loginURL: base.appending(path: "auth/login"), verifyURL: base.appending(path: "auth/mfa/verify"), transport: transport)
            try await client.signIn(try await signIn.signIn(username: arguments[5], password: "correct horse battery staple"))
            return "signed-in"
        case "signout":
            try await client.signOut()
            return "signed-out"
        case "serve":
            say("ready")
            for await command in commands() {
                if command == "quit" { break }
                if command.hasPrefix("go "), let count = Int(command.dropFirst(3)) { say(await burst(client, count)) }
            }
            return "bye"
        default:
            let result = await burst(client, Int(arguments[6]) ?? 0)
            return result.hasPrefix("ok") ? result : "fail \(result.split(separator: " ")[1])"
        }
    }
    say(line)
    exit(line.hasPrefix("fail") || line.hasPrefix("error") ? 1 : 0)
} catch {
    say("error \(error)")
    exit(1)
}
