// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Testing

/// Every PostgreSQL suite, one after the other: each starts its own cluster (and the fleet suites
/// eight worker processes); run together they would load this 2-core machine enough to make the
/// timing of other modules' tests flaky.
@Suite(.serialized) enum PostgresSuites {}
