// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

extension OTPKeyURI {
    /// Parses an `otpauth://` key URI.
    ///
    /// The scheme and type are case-insensitive; the label is `account` or `issuer:account`
    /// (percent-encoded, `%3A` allowed for the colon, spaces after it ignored). `secret` is
    /// required; `algorithm`, `digits` and `period` default to SHA1, 6 and 30; `counter` is
    /// required for `hotp`. When the label has an issuer prefix and an `issuer` parameter is
    /// given too, they must agree. Unknown parameters (such as `image`) are ignored.
    ///
    /// - Parameter string: The URI text.
    /// - Throws: ``MFAError`` whose code names the part that is wrong; its text never
    ///   contains the secret.
    public init(parsing string: String) throws(MFAError) {
        guard let schemeEnd = string.firstRange(of: "://"), string[..<schemeEnd.lowerBound].lowercased() == "otpauth" else {
            throw MFAError(code: .keyURIScheme, message: "a key URI starts with 'otpauth://'")
        }
        let afterScheme = string[schemeEnd.upperBound...]
        let queryStart = afterScheme.firstIndex(of: "?")
        let path = afterScheme[..<(queryStart ?? afterScheme.endIndex)]
        let query = queryStart.map { afterScheme[afterScheme.index(after: $0)...] } ?? ""

        guard let slash = path.firstIndex(of: "/") else {
            let typeIsValid = ["totp", "hotp"].contains(path.lowercased())
            throw MFAError(code: typeIsValid ? .keyURILabel : .keyURIType, message: typeIsValid ? "the key URI has no label (otpauth://TYPE/LABEL)" : "the type must be 'totp' or 'hotp'")
        }
        let type = path[..<slash].lowercased()
        guard type == "totp" || type == "hotp" else {
            throw MFAError(code: .keyURIType, message: "the type must be 'totp' or 'hotp'")
        }
        let (labelIssuer, account) = try Self.parseLabel(path[path.index(after: slash)...])
        let parameters = try Self.parseQuery(query)

        guard let secretText = parameters["secret"] else {
            throw MFAError(code: .keyURIMissingSecret, message: "the 'secret' parameter is required")
        }
        let secret: OTPSecret
        do {
            secret = try OTPSecret(base32: secretText)
        } catch {
            throw MFAError(code: .invalidSecret, message: "the 'secret' parameter is not a non-empty base32 value")
        }

        var issuer = labelIssuer
        if let parameter = parameters["issuer"] {
            if let labelIssuer, labelIssuer != parameter {
                throw MFAError(code: .keyURIIssuer, message: "the 'issuer' parameter disagrees with the issuer prefix of the label")
            }
            issuer = parameter
        }

        var algorithm = OTPAlgorithm.sha1
        if let name = parameters["algorithm"] {
            guard let parsed = OTPAlgorithm(uriName: name) else {
                throw MFAError(code: .keyURIAlgorithm, message: "the 'algorithm' must be SHA1, SHA256 or SHA512")
            }
            algorithm = parsed
        }

        var digits = 6
        if let text = parameters["digits"] {
            guard Self.isDecimal(text), let value = Int(text), MFAError.allowedDigits.contains(value) else {
                throw MFAError(code: .keyURIDigits, message: "'digits' must be 6, 7 or 8")
            }
            digits = value
        }

        let kind: Kind
        if type == "totp" {
            var period = 30
            if let text = parameters["period"] {
                guard Self.isDecimal(text), let value = Int(text), value > 0 else {
                    throw MFAError(code: .keyURIPeriod, message: "'period' must be a positive whole number of seconds")
                }
                period = value
            }
            kind = .totp(period: period)
        } else {
            guard let text = parameters["counter"] else {
                throw MFAError(code: .keyURICounter, message: "an hotp key URI needs a 'counter' parameter")
            }
            guard Self.isDecimal(text), let value = UInt64(text) else {
                throw MFAError(code: .keyURICounter, message: "'counter' must be a whole number from 0 to 2^64-1")
            }
            kind = .hotp(counter: value)
        }
        try self.init(kind: kind, secret: secret, account: account, issuer: issuer, algorithm: algorithm, digits: digits)
    }

    /// Splits a percent-encoded label into issuer prefix and account.
    private static func parseLabel(_ raw: Substring) throws(MFAError) -> (issuer: String?, account: String) {
        guard let label = PercentEncoding.decode(raw) else {
            throw MFAError(code: .keyURILabel, message: "the label is not correctly percent-encoded UTF-8")
        }
        guard let colon = label.firstIndex(of: ":") else {
            guard !label.isEmpty else {
                throw MFAError(code: .keyURILabel, message: "the label (account name) is empty")
            }
            return (nil, label)
        }
        let issuer = String(label[..<colon])
        let account = String(label[label.index(after: colon)...].drop(while: { $0 == " " }))
        guard !issuer.isEmpty, !account.isEmpty else {
            throw MFAError(code: .keyURILabel, message: "the label must be 'issuer:account' with both parts non-empty")
        }
        return (issuer, account)
    }

    /// Decodes the query into a dictionary of lower-cased names; duplicates are refused.
    private static func parseQuery(_ query: Substring) throws(MFAError) -> [String: String] {
        var parameters: [String: String] = [:]
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: "=")
            let rawName = pair[..<(equals ?? pair.endIndex)]
            let rawValue = equals.map { pair[pair.index(after: $0)...] } ?? ""
            guard let name = PercentEncoding.decode(rawName)?.lowercased() else {
                throw MFAError(code: .keyURIParameter, message: "a parameter name is not correctly percent-encoded")
            }
            guard let value = PercentEncoding.decode(rawValue) else {
                throw MFAError(code: .keyURIParameter, message: Self.knownParameters.contains(name) ? "the value of '\(name)' is not correctly percent-encoded" : "a parameter value is not correctly percent-encoded")
            }
            guard parameters.updateValue(value, forKey: name) == nil || !knownParameters.contains(name) else {
                throw MFAError(code: .keyURIParameter, message: "parameter '\(name)' is given more than once")
            }
        }
        return parameters
    }

    /// The parameters this parser reads; only these names appear in error messages.
    private static let knownParameters: Set<String> = ["secret", "issuer", "algorithm", "digits", "period", "counter"]

    private static func isDecimal(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
