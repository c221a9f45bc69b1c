// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

extension AuthTestServer {
    /// The route groups of the plug-in modules, served by every instance: cookie sessions,
    /// multi-factor sign-in, signed endpoints and cacheable endpoints.
    static var pluginRouteGroups: [any RouteGroup] {
        [CookieSessionRoutes(), MFARoutes(), SignedRoutes(), CacheRoutes()]
    }
}
