// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// The types AuthCore's API is written in: `HTTPFields`, `HTTPRequest.Method` and
// `HTTPResponse.Status` come from swift-http-types. Re-exported so that `import AuthCore` is
// enough to name them (`headerFields: [.accept: "application/json"]`), without adding the
// package to your own manifest.
@_exported public import HTTPTypes
