// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes

extension HTTPFields {
    /// The value of the field `name` as the subscript gives it: one field's value, or several
    /// joined by `, ` (`Cookie` fields by `; `); nil when absent.
    ///
    /// For the fields the pipeline reads on every response (`Date`, rate-limit fields): HTTPTypes'
    /// subscript joins through generic code that runs unspecialized from here, about 3,500
    /// instructions for a single field, where this loop takes a few hundred.
    package func value(_ name: HTTPField.Name) -> String? {
        var value: String?
        for field in self where field.name == name {
            if let joined = value {
                value = joined + (name == .cookie ? "; " : ", ") + field.value
            } else {
                value = field.value
            }
        }
        return value
    }
}
