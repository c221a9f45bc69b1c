import HTTPTypes

/// What AuthKit's response cache (AuthCache's `CacheMiddleware`) did with a request, read from
/// its member of the response's `Cache-Status` field (RFC 9211), so that this module counts hits
/// and misses without depending on AuthCache.
enum CacheStatusOutcome {
    static let field = HTTPField.Name("Cache-Status")!

    /// `hit`, `stale` (served because the server failed), `revalidated` (a 304) or `miss`; nil
    /// when no AuthKit cache handled the response. The last `AuthKit` member counts: the cache
    /// nearest the caller.
    static func of(_ fields: HTTPFields) -> String? {
        var member: Substring?
        for field in fields where field.name == Self.field {
            for candidate in field.value.split(separator: ",") {
                let trimmed = candidate.drop { $0 == " " || $0 == "\t" }
                if trimmed.hasPrefix("AuthKit"), trimmed.dropFirst(7).first.map({ $0 == ";" || $0 == " " }) ?? true {
                    member = trimmed
                }
            }
        }
        guard let member else { return nil }
        let parameters = member.split(separator: ";").dropFirst().map { $0.filter { $0 != " " && $0 != "\t" } }
        if parameters.contains("hit") {
            return parameters.contains("detail=stale-if-error") ? "stale" : "hit"
        }
        return parameters.contains("fwd-status=304") ? "revalidated" : "miss"
    }
}
