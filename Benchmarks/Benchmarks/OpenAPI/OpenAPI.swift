// AuthOpenAPI's cost per call (issue 22): a call of the client generated from AuthTestServer's
// OpenAPI document (`getMe()`, decoding its JSON answer) through AuthOpenAPIMiddleware running the
// standard pipeline (redirect, retry, headers, authentication with a valid token), against the
// same call through a plain ClientMiddleware that only sets the Authorization field, paired in
// the same iteration. Both end at a ClientTransport that answers at once, so the difference is
// the adapter and AuthKit's pipeline, not the network.
import AuthCore
import AuthOpenAPI
import AuthTestServerAPI
import Benchmark
import BenchmarkSupport
import Foundation
import HTTPTypes
import OpenAPIRuntime

let serverURL = URL(string: "https://api.example.com")!
let token = "access-token-0123456789abcdef"

/// Answers every call with `GET /me`'s 200 body.
struct InstantTransport: ClientTransport {
    static let body = Array(#"{"user_id":"u-1","username":"alice","guest":false}"#.utf8)
    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(Self.body))
    }
}

/// What an app writes without AuthKit: a middleware that puts a fixed bearer token on.
struct BearerHeaderMiddleware: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}

/// The standard pipeline around a signed-in session, as AuthOpenAPIMiddleware runs it.
func makeAuthMiddleware() async throws -> AuthOpenAPIMiddleware {
    let account = AccountKey(namespace: "bench", account: "alice")
    let strategy = BearerStrategy(allowedHosts: AllowedHosts(["api.example.com"])) { $0 }
    let session = AccountSession(account: account, strategy: strategy, vault: CredentialVault(store: InMemoryCredentialStore()))
    try await session.signIn(BearerTokenSet(accessToken: token, refreshToken: "refresh", expiresAt: Date().addingTimeInterval(3 * 3600)))
    let client = AuthClient(transport: ClosureTransport { _ in AuthResponse(status: .internalServerError) }, middlewares: [
        RedirectMiddleware(),
        RetryMiddleware(),
        HeadersMiddleware([.userAgent: "bench"]),
        AuthenticationMiddleware(session: session),
    ])
    return AuthOpenAPIMiddleware(client)
}

let benchmarks: @Sendable () -> Void = {
    var paired = Benchmark.Configuration.suite(.nanoseconds, scaling: .kilo, warmup: 5, maxDuration: .seconds(3), maxIterations: 2_000)
    paired.metrics = Paired.metrics

    Benchmark("generated getMe() through AuthOpenAPIMiddleware vs a header-only ClientMiddleware", configuration: paired) { (benchmark: Benchmark, clients: (Client, Client)) in
        let (plain, measured) = clients
        try await Paired.measure(benchmark) {
            for _ in benchmark.scaledIterations { blackHole(try await plain.getMe().ok.body.json) }
        } subject: {
            for _ in benchmark.scaledIterations { blackHole(try await measured.getMe().ok.body.json) }
        }
    } setup: {
        let plain = Client(serverURL: serverURL, transport: InstantTransport(), middlewares: [BearerHeaderMiddleware()])
        let measured = Client(serverURL: serverURL, transport: InstantTransport(), middlewares: [try await makeAuthMiddleware()])
        return (plain, measured)
    }
}
