// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// Runs the Hummingbird HTTP/1 server for a responder, stamping every response's `Date` header
/// from the server clock.
///
/// `Application.run()` overwrites `Date` with real time after all middleware has run, so a
/// middleware cannot set it; this service builds the server the way `Application` does and sets
/// `Date` last.
struct ClockedHTTPService<Responder: HTTPResponder>: Service where Responder.Context == BasicRequestContext {
    let responder: Responder
    let host: String
    let port: Int
    let clock: ServerClock
    let logger: Logger
    let onServerRunning: @Sendable (Int?) async -> Void

    func run() async throws {
        let responder = self.responder
        let clock = self.clock
        let logger = self.logger
        let server = try HTTPServerBuilder.http1().buildServer(
            configuration: ServerConfiguration(address: .hostname(host, port: port)),
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: logger,
            responder: { (request, responseWriter: consuming ResponseWriter, channel) in
                let context = BasicRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
                var response: Response
                do {
                    response = try await responder.respond(to: request, context: context)
                } catch {
                    logger.debug("unhandled error", metadata: ["error.type": .string(String(describing: type(of: error)))])
                    response = Response(status: .internalServerError)
                }
                // An injected fault may send a Date of its own (a hostile one, to test clients).
                if response.headers[.date] == nil { response.headers[.date] = HTTPDate.format(clock.now()) }
                try await responseWriter.write(response: response.head, body: response.body)
            },
            onServerRunning: { [onServerRunning] channel in
                await onServerRunning(channel.localAddress?.port)
            }
        )
        try await server.run()
    }
}
