import ArgumentParser
import AuthCore
import AuthHTTPClient
import AuthSQLiteStore
import Foundation
import HTTPTypes

/// Where the subcommands keep credentials and which server they talk to.
struct CommonOptions: ParsableArguments {
    @Option(help: "The server's base URL.")
    var server: String = "http://127.0.0.1:8080"

    @Option(help: "The SQLite credential store.")
    var store: String = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".auth-demo/credentials.sqlite").path

    @Option(help: "The namespace accounts are kept under.")
    var namespace: String = "auth-demo"

    var baseURL: URL {
        get throws {
            guard let url = URL(string: server), url.host != nil else { throw ValidationError("--server must be an absolute URL") }
            return url
        }
    }

    /// Runs `body` with a container on the SQLite store and an HTTP transport.
    func withContainer<T>(_ body: (AuthContainer, HTTPClientTransport) async throws -> T) async throws -> T {
        try FileManager.default.createDirectory(at: URL(fileURLWithPath: store).deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return try await HTTPClientTransport.withTransport { transport in
            let container = AuthContainer()
            container.useHTTPClient(transport)
            try await container.useSQLiteStore(at: store)
            return try await body(container, transport)
        }
    }

    /// A bearer strategy refreshing through the server's `/auth/refresh`.
    func bearer(_ transport: HTTPClientTransport) throws -> BearerStrategy {
        let base = try baseURL
        return BearerStrategy(
            allowedHosts: AllowedHosts(origin: base, allowInsecure: base.scheme == "http"),
            refresher: OAuth2RefreshTokenRefresher(tokenEndpoint: base.appending(path: "auth/refresh"), clientID: "auth-demo", transport: transport))
    }
}
