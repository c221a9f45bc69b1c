// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

extension AuthContainer {
    /// Sends every request of this container's clients through `transport`.
    public func useURLSession(_ transport: URLSessionTransport) {
        override(TransportKey.self, with: transport)
    }
}
