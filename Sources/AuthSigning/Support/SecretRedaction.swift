// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore

/// Hides the values of secret query items and header fields (by ``SecretFieldNames``) in the
/// strings signatures are computed over, for descriptions and mirrors.
enum SecretRedaction {
    /// What a hidden value shows instead.
    static let marker = "<redacted>"

    /// A raw query (`a=1&api_key=…`) with the values of secret items replaced.
    static func query(_ query: some StringProtocol, secrets: SecretFieldNames) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? pair
            return secrets.containsQueryItem(Encoding.percentDecode(name)) ? "\(name)=\(marker)" : String(pair)
        }.joined(separator: "&")
    }

    /// A URL or request target with the values of secret query items replaced.
    static func target(_ target: some StringProtocol, secrets: SecretFieldNames) -> String {
        guard let mark = target.firstIndex(of: "?") else { return String(target) }
        return "\(target[...mark])\(query(target[target.index(after: mark)...], secrets: secrets))"
    }

    /// A `name:value` header line with the value replaced when the field is secret.
    static func headerLine(_ line: some StringProtocol, secrets: SecretFieldNames) -> String {
        guard let colon = line.firstIndex(of: ":"), secrets.containsHeader(String(line[..<colon])) else { return String(line) }
        return "\(line[...colon])\(marker)"
    }
}
