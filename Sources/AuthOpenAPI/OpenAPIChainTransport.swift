import AuthCore
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization

/// The end of ``AuthOpenAPIMiddleware``'s pipeline: sends through the rest of the generated
/// client's chain (its `next`), found in a task-local value for the duration of one call.
///
/// The pipeline is linked once, so `next` cannot be captured in it; and `next` is not escaping,
/// so it is lent through a ``Chain`` box that is emptied before the call returns. Anything that
/// inherited the task-local value and outlives the call (a renewal task started during it) then
/// finds the box empty, never `next`.
struct OpenAPIChainTransport: Transport {
    typealias Next = @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)

    /// The rest of a chain while one call of the middleware runs.
    final class Chain: Sendable {
        let next: Mutex<Next?>
        let maxResponseBytes: Int
        init(_ next: @escaping Next, maxResponseBytes: Int) {
            self.next = Mutex(next)
            self.maxResponseBytes = maxResponseBytes
        }
    }

    @TaskLocal static var current: Chain?

    /// The origins requests went to, as URLs.
    let origins = OriginURLs()

    /// Runs `body` with `next` as the end of the pipeline.
    static func withChain<T>(_ next: Next, maxResponseBytes: Int, _ body: () async throws -> T) async throws -> T {
        try await withoutActuallyEscaping(next) { next in
            let chain = Chain(next, maxResponseBytes: maxResponseBytes)
            defer { chain.next.withLock { $0 = nil } }
            return try await $current.withValue(chain) { try await body() }
        }
    }

    nonisolated(nonsending) func send(_ request: AuthRequest) async throws -> AuthResponse {
        guard let chain = Self.current, let next = chain.next.withLock({ $0 }) else {
            throw AuthError.invalidRequest("AuthOpenAPIMiddleware's pipeline was called outside the middleware's call")
        }
        let (head, body, baseURL) = try OpenAPIMessages.openAPIRequest(request, origins: origins)
        let (response, responseBody) = try await next(head, body, baseURL)
        let bytes = try await OpenAPIMessages.collect(responseBody, upTo: chain.maxResponseBytes, side: .response)
        return AuthResponse(head: response, body: bytes)
    }
}
