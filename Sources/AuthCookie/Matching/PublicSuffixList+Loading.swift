// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

extension PublicSuffixList {
    /// The name of the shipped list in AuthCookie's resource bundle.
    static let resourceName = "public_suffix_list"

    /// The shipped list, both sections, compiled at the first lookup of ``builtIn``: a
    /// `static let`, so it is loaded once and safely from any thread.
    static let shipped = Result { () throws(CookieError) in
        try loadShippedRules(includingPrivateDomains: true)
    }

    /// Loads and compiles the list shipped with AuthCookie, anew at every call.
    ///
    /// ``builtIn`` is the same list loaded once, which fails closed instead of throwing; call
    /// this at start-up to report a broken installation, or to get the ICANN section alone.
    /// - Parameter includingPrivateDomains: Whether the private section's rules apply (default
    ///   true).
    /// - Throws: ``CookieError``: `.publicSuffixListMissing`, `.publicSuffixListUnreadable`,
    ///   `.publicSuffixListMalformed` (not UTF-8, or without its ICANN and private sections) or
    ///   `.publicSuffixListInvalidRule`.
    public static func bundled(includingPrivateDomains: Bool = true) throws(CookieError) -> PublicSuffixList {
        PublicSuffixList(storage: .loaded(.success(try loadShippedRules(includingPrivateDomains: includingPrivateDomains))))
    }

    /// Compiles the list in a file, such as a copy an application refreshes itself.
    /// - Parameters:
    ///   - url: A `public_suffix_list.dat` file, UTF-8.
    ///   - includingPrivateDomains: Whether the private section's rules apply (default true).
    /// - Throws: ``CookieError``: `.publicSuffixListUnreadable`, `.publicSuffixListMalformed`
    ///   (not UTF-8) or `.publicSuffixListInvalidRule`.
    public init(contentsOf url: URL, includingPrivateDomains: Bool = true) throws(CookieError) {
        self.init(storage: .loaded(.success(try Self.compileFile(at: url, includingPrivateDomains: includingPrivateDomains))))
    }

    static func loadShippedRules(includingPrivateDomains: Bool) throws(CookieError) -> PublicSuffixRules {
        try loadShippedRules(
            at: Bundle.module.url(forResource: resourceName, withExtension: "dat"),
            includingPrivateDomains: includingPrivateDomains)
    }

    /// Compiles the shipped list found at `url`, which must have both sections.
    static func loadShippedRules(at url: URL?, includingPrivateDomains: Bool) throws(CookieError) -> PublicSuffixRules {
        guard let url else {
            throw CookieError(
                code: .publicSuffixListMissing,
                message: "\(resourceName).dat is not in AuthCookie's resource bundle; rebuild the package, or ship its resource bundle with the executable")
        }
        let rules = try compileFile(at: url, includingPrivateDomains: includingPrivateDomains)
        guard rules.sections.contains([.icann, .privateDomains]), rules.ruleCount > 0 else {
            throw CookieError(
                code: .publicSuffixListMalformed,
                message: "\(url.lastPathComponent) lacks the ICANN or the private section; restore it with scripts/update-public-suffix-list")
        }
        return rules
    }

    static func compileFile(at url: URL, includingPrivateDomains: Bool) throws(CookieError) -> PublicSuffixRules {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CookieError(code: .publicSuffixListUnreadable, message: "cannot read \(url.lastPathComponent)", underlying: error)
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw CookieError(code: .publicSuffixListMalformed, message: "\(url.lastPathComponent) is not UTF-8 text")
        }
        return try PublicSuffixRules.compile(text: text, includingPrivateDomains: includingPrivateDomains)
    }
}
