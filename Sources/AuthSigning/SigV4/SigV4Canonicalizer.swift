import HTTPTypes

/// The canonical URI and header rules of SigV4.
enum SigV4Canonicalizer {
    /// The canonical URI of a request path (without its query).
    static func canonicalURI(_ path: Substring, rule: SigV4Configuration.PathCanonicalization) -> String {
        switch rule {
        case .s3:
            guard !path.isEmpty else { return "/" }
            return path.split(separator: "/", omittingEmptySubsequences: false)
                .map { Encoding.percentEncode(Encoding.percentDecode($0)) }
                .joined(separator: "/")
        case .normalizedDoubleEncoded:
            var output: [Substring] = []
            let segments = path.split(separator: "/", omittingEmptySubsequences: true)
            for segment in segments {
                switch segment {
                case ".": continue
                case "..": _ = output.popLast()
                default: output.append(segment)
                }
            }
            let endsInDirectory = path.hasSuffix("/") || segments.last == "." || segments.last == ".."
            var uri = "/" + output.map { Encoding.percentEncode($0) }.joined(separator: "/")
            if endsInDirectory, !output.isEmpty { uri += "/" }
            return uri
        }
    }

    /// Canonical headers: lower-cased names sorted, values trimmed with runs of spaces collapsed,
    /// repeated fields joined by `,` in the order they appear. `host` comes from the authority
    /// when there is no `Host` field.
    /// - Returns: The `name:value` lines (each ended by LF) and the signed header list.
    static func canonicalHeaders(
        _ fields: HTTPFields,
        authority: String?,
        excluding: Set<String>
    ) -> (block: String, signed: String) {
        var values: [String: [String]] = [:]
        for field in fields {
            let name = field.name.canonicalName
            guard !excluding.contains(name) else { continue }
            values[name, default: []].append(normalize(field.value))
        }
        if values["host"] == nil, let authority {
            values["host"] = [authority]
        }
        let names = values.keys.sorted { Array($0.utf8).lexicographicallyPrecedes($1.utf8) }
        let block = names.map { "\($0):\(values[$0, default: []].joined(separator: ","))\n" }.joined()
        return (block, names.joined(separator: ";"))
    }

    /// Trims a value and collapses each run of spaces and tabs into one space.
    static func normalize(_ value: String) -> String {
        var out = ""
        var pendingSpace = false
        for character in value {
            if character == " " || character == "\t" {
                pendingSpace = true
            } else {
                if pendingSpace, !out.isEmpty { out.append(" ") }
                pendingSpace = false
                out.append(character)
            }
        }
        return out
    }
}
