// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Hummingbird

/// `POST /auth/guest`: a short-lived guest token for the device named by `X-Device-ID`.
struct GuestRoutes: RouteGroup {
    static let deviceIDField = HTTPField.Name("X-Device-ID")

    func addRoutes(to router: Router<BasicRequestContext>, environment: RouteEnvironment) {
        router.post("/auth/guest") { request, _ in
            let deviceID = Self.deviceIDField
                .flatMap { request.headers[$0] }?
                .trimmingCharacters(in: .whitespaces) ?? ""
            guard !deviceID.isEmpty else {
                return ServerResponse.error(.badRequest, "invalid_request", description: "the X-Device-ID header is required")
            }
            let tokens = try await environment.state.issueGuestToken(deviceID: deviceID)
            environment.counters.record(.guestSession)
            return ServerResponse.json(.ok, tokens)
        }
    }
}
