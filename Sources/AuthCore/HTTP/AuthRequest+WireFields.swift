// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import HTTPTypes

extension AuthRequest {
    /// The header fields a transport writes on an HTTP/1.1 connection: the head's fields, with
    /// every `Cookie` field joined into one.
    ///
    /// `HTTPFields` keeps `Cookie` as one field per cookie — the HTTP/2 form (RFC 9113 §8.2.3),
    /// which is what setting `headerFields[.cookie] = "a=1; b=2"` produces. Over HTTP/1.1, RFC 6265
    /// §5.4 allows one `Cookie` field only, and servers that read the first (Werkzeug, for one)
    /// see a broken value. A transport that speaks HTTP/1.1 writes these fields; one that speaks
    /// HTTP/2 may send the head's fields as they are. The joined field takes the place of the
    /// first; without two or more `Cookie` fields this is the head's fields unchanged.
    public var headerFieldsForHTTP1: HTTPFields {
        let fields = head.headerFields
        var cookies = 0
        for field in fields where field.name == .cookie {
            cookies += 1
            if cookies > 1 { break }
        }
        guard cookies > 1 else { return fields }
        var joined = HTTPFields()
        joined.reserveCapacity(fields.count)
        var wroteCookie = false
        for field in fields {
            guard field.name == .cookie else {
                joined.append(field)
                continue
            }
            guard !wroteCookie else { continue }
            wroteCookie = true
            // The getter joins every Cookie field with "; ".
            joined.append(HTTPField(name: .cookie, value: fields[.cookie] ?? ""))
        }
        return joined
    }
}
