// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes

extension URLSessionTransport {
    /// The header fields as one line per name, which is all a `URLRequest` can hold: the values
    /// of a repeated field joined with `, ` in order, under the name and at the place of its
    /// first line.
    ///
    /// That is the list form of RFC 9110 §5.3, and the value RFC 9421 §2.1 signs for a repeated
    /// field: Foundation's `addValue` joins with `,` alone, and a signature covering the field
    /// did not verify at the server. `fields` are a request's ``/AuthCore/AuthRequest/headerFieldsForHTTP1``,
    /// whose `Cookie` lines are already one field joined with `; ` (RFC 6265 §5.4), the one
    /// request field that is not a comma-separated list.
    static func fieldLines(of fields: HTTPFields) -> [(name: String, value: String)] {
        var lines: [(name: String, value: String)] = []
        var lineOfName: [String: Int] = [:]
        for field in fields {
            if let line = lineOfName[field.name.canonicalName] {
                lines[line].value += ", " + field.value
            } else {
                lineOfName[field.name.canonicalName] = lines.count
                lines.append((field.name.rawName, field.value))
            }
        }
        return lines
    }
}
