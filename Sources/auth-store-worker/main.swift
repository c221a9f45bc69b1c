// A worker process for the cross-process tests: it opens a shared credential store and acts for
// one account against an AuthTestServer, as another process of the same app would.
//
// usage: auth-store-worker <sqlite|file> <store path> <server base URL> <namespace> <account> <action>
//   <count>   sends <count> concurrent requests to `/me` with the OAuth 2.0 refresher; prints
//             `ok <successes>` and exits 0 when all succeeded.
//   signin    signs the account in with the server's password flow (the account name is the user
//             name, the password the test harness's); prints `signed-in`.
//   signout   signs the account out; prints `signed-out`.
// Any failure prints `error <description>` and exits 1.
import AuthCore
import AuthFileStore
import AuthHTTPClient
import AuthMFA
import AuthSQLiteStore
import Foundation
import HTTPTypes

let arguments = CommandLine.arguments
guard arguments.count == 7, let base = URL(string: arguments[3]) else {
    FileHandle.standardError.write(Data("usage: auth-store-worker <sqlite|file> <store path> <server URL> <namespace> <account> <requests|signin|signout>\n".utf8))
    exit(2)
}

do {
    let line = try await HTTPClientTransport.withTransport { transport in
        let container = AuthContainer()
        container.useHTTPClient(transport)
        switch arguments[1] {
        case "sqlite": try await container.useSQLiteStore(at: arguments[2])
        default: try container.useFileStore(at: URL(fileURLWithPath: arguments[2]))
        }
        let refresher = OAuth2RefreshTokenRefresher(tokenEndpoint: base.appending(path: "auth/refresh"), clientID: "worker", transport: transport)
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
        default:
            let count = Int(arguments[6]) ?? 0
            let succeeded = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<count {
                    group.addTask { try await client.send(.get, base.appending(path: "me")).status.code == 200 }
                }
                var succeeded = 0
                for try await ok in group where ok { succeeded += 1 }
                return succeeded
            }
            guard succeeded == count else { return "fail \(succeeded)" }
            return "ok \(succeeded)"
        }
    }
    FileHandle.standardOutput.write(Data("\(line)\n".utf8))
    exit(line.hasPrefix("fail") ? 1 : 0)
} catch {
    FileHandle.standardOutput.write(Data("error \(error)\n".utf8))
    exit(1)
}
