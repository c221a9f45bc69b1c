// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation

extension CookieStorage {
    /// A cookie to send: what the header order compares and where it sits. Holds no reference,
    /// so sorting moves plain bytes.
    struct Match {
        var pathLength: Int
        var creationTime: Date
        var sequence: UInt64
        var bucket: Dictionary<DomainKey, [Cookie]>.Index
        var index: Int

        /// Longer paths first, then earlier creation (§5.4 step 2), then earlier insertion.
        static func headerOrder(_ lhs: Match, _ rhs: Match) -> Bool {
            if lhs.pathLength != rhs.pathLength { return lhs.pathLength > rhs.pathLength }
            if lhs.creationTime != rhs.creationTime { return lhs.creationTime < rhs.creationTime }
            return lhs.sequence < rhs.sequence
        }
    }

    /// The UTF-8 offset of the parent domain of `host`'s tail from `offset`, if that parent
    /// has at least two labels.
    static func parentDomain(of host: String, from offset: Int) -> Int? {
        withUTF8Bytes(host) { bytes in
            guard let dot = bytes[offset...].firstIndex(of: UInt8(ascii: ".")),
                  bytes[(dot + 1)...].contains(UInt8(ascii: "."))
            else { return nil }
            return dot + 1
        }
    }

    /// Runs `body` with the name and value bytes of the cookie a match points at.
    func withNameAndValue<R>(of match: Match, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> R) -> R {
        buckets.values[match.bucket].withUnsafeBufferPointer { cookies in
            withUTF8Bytes(cookies[match.index].name) { name in
                withUTF8Bytes(cookies[match.index].value) { value in body(name, value) }
            }
        }
    }

    /// The cookie a match points at; valid until the storage changes.
    func cookie(at match: Match) -> Cookie { buckets.values[match.bucket][match.index] }

    /// Finds the cookies to send to `target` (§5.4 steps 1–3), marks them accessed, and passes
    /// them in header order to `body`; expired cookies met on the way are removed afterwards.
    ///
    /// Only the buckets of the host and of its parent domains are visited (just the host for an
    /// IP address), so the cost does not grow with the number of other sites in the jar.
    mutating func withCookiesToSend<R>(to target: RequestTarget, now: Date, _ body: (CookieStorage, [Match]) -> R) -> R {
        var matches: [Match] = []
        var sawExpired = false
        let host = target.host
        withUTF8Bytes(target.path) { path in
            var offset = 0
            while true {
                let isExactHost = offset == 0
                if let bucket = buckets.index(forKey: DomainKey(host, from: offset)) {
                    buckets.values[bucket].withUnsafeMutableBufferPointer { cookies in
                        for index in cookies.indices {
                            if cookies[index].isHostOnly && !isExactHost { continue }
                            if cookies[index].isSecure && !target.isSecure { continue }
                            if cookies[index].isExpired(at: now) { sawExpired = true; continue }
                            guard PathMatch.matches(requestPath: path, cookiePath: cookies[index].path) else { continue }
                            cookies[index].lastAccessTime = now
                            if matches.isEmpty { matches.reserveCapacity(16) }
                            matches.append(Match(
                                pathLength: cookies[index].path.utf8.count, creationTime: cookies[index].creationTime,
                                sequence: cookies[index].sequence, bucket: bucket, index: index
                            ))
                        }
                    }
                }
                // An IP address matches only itself. A host name also matches its parent
                // domains, except single labels: no domain cookie can be set on one.
                guard !target.isIPAddress, let next = Self.parentDomain(of: host, from: offset) else { break }
                offset = next
            }
        }
        if matches.count > 1 { matches.sort(by: Match.headerOrder) }
        let result = body(self, matches)
        if sawExpired { removeExpired(now: now) }
        return result
    }
}
