// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import AuthCore
@testable import AuthHTTPClient
import Foundation
import InMemoryTracing
import Testing
import Tracing

/// AsyncHTTPClient's tracing: left out when the tracer records nothing, kept (spans and trace
/// headers on the wire) when one records.
@Suite struct TracerTests {
    /// The transport's configurations hold no tracer where AsyncHTTPClient's would hold
    /// `NoOpTracer`. `withTracer` binds it for this task, whatever another test bootstrapped.
    @Test func aTracerThatRecordsNothingIsLeftOut() async throws {
        let transport = try withTracer(NoOpTracer()) {
            #expect(HTTPClientTransport.defaultConfiguration.tracing.tracer == nil)
            // A configuration of AsyncHTTPClient's own, given to the transport.
            let configuration = HTTPClient.Configuration()
            try #require(configuration.tracing.tracer is NoOpTracer)
            return HTTPClientTransport(configuration: configuration)
        }
        #expect(transport.client.tracer == nil)
        try await transport.shutdown()
    }

    /// A guard for the change above (it passes with or without it): a tracer that records, bound
    /// when the transport is made, still gets AsyncHTTPClient's span for each request, and the
    /// trace goes on the request.
    @Test func aTracerThatRecordsIsKept() async throws {
        let tracer = InMemoryTracer()
        try await EchoServer.withRunning { base in
            try await withTracer(tracer) {
                #expect(HTTPClientTransport.defaultConfiguration.tracing.tracer is InMemoryTracer)
                try await HTTPClientTransport.withTransport { transport in
                    try await tracer.withSpan("caller") { span in
                        let response = try await transport.send(AuthRequest(method: .get, url: base.appending(path: "echo")))
                        let echo = try JSONDecoder().decode(EchoServer.Echo.self, from: response.body)
                        #expect(echo.headers[InMemoryTracer.traceIDKey] == span.traceID)
                    }
                }
            }
        }
        let spans = tracer.finishedSpans
        let request = try #require(spans.first { $0.operationName == "GET" })
        #expect(request.kind == .client)
        #expect(request.traceID == spans.first { $0.operationName == "caller" }?.traceID)
    }
}
