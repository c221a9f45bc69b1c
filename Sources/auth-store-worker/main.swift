// A worker process for the cross-process renewal tests: it opens a shared credential store,
// builds an AuthKit client for one account with the OAuth 2.0 refresher of an AuthTestServer,
// sends requests to `/me`, and prints `ok <count>` (or `error <description>`).
//
// usage: auth-store-worker <sqlite|file> <store path> <server base URL> <namespace> <account> <requests>
import AuthCore
import AuthFileStore
import AuthHTTPClient
import AuthSQLiteStore
import Foundation
import HTTPTypes

let arguments = CommandLine.arguments
guard arguments.count == 7, let base = URL(string: arguments[3]), let count = Int(arguments[6]) else {
    FileHandle.standardError.write(Data("usage: auth-store-worker <sqlite|file> <store path> <server URL> <namespace> <account> <requests>\n".utf8))
    exit(2)
}

do {
    let ok = try await HTTPClientTransport.withTransport { transport in
        let container = AuthContainer()
        container.useHTTPClient(transport)
        switch arguments[1] {
        case "sqlite": try await container.useSQLiteStore(at: arguments[2])
        default: try container.useFileStore(at: URL(fileURLWithPath: arguments[2]))
        }
        let refresher = OAuth2RefreshTokenRefresher(tokenEndpoint: base.appending(path: "auth/refresh"), clientID: "worker", transport: transport)
        let strategy = BearerStrategy(allowedHosts: AllowedHosts(origin: base), refresher: refresher)
        let client = container.makeClient(for: AccountKey(namespace: arguments[4], account: arguments[5]), strategy: strategy)
        return try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<count {
                group.addTask { try await client.send(.get, base.appending(path: "me")).status.code == 200 }
            }
            var succeeded = 0
            for try await ok in group where ok { succeeded += 1 }
            return succeeded
        }
    }
    FileHandle.standardOutput.write(Data("ok \(ok)\n".utf8))
    exit(ok == count ? 0 : 1)
} catch {
    FileHandle.standardOutput.write(Data("error \(error)\n".utf8))
    exit(1)
}
