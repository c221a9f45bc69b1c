extension AuthTestServer {
    /// The route groups of the plug-in modules, served by every instance: cookie sessions,
    /// multi-factor sign-in, signed endpoints and cacheable endpoints.
    static var pluginRouteGroups: [any RouteGroup] {
        [CookieSessionRoutes(), MFARoutes(), SignedRoutes(), CacheRoutes()]
    }
}
