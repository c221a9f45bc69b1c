// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The Mozilla Public Suffix List: the domains under which anyone can register names ("public
/// suffixes"), on which no cookie may be set (RFC 6265 §5.3 step 5).
///
/// ``builtIn``, the jar's default, is the whole list shipped with AuthCookie as a resource: its
/// ICANN section (`com`, `co.uk`, `*.ck`, `!www.ck`) and its private section (platforms such as
/// `github.io`, `blogspot.com`, `*.compute.amazonaws.com`). It is compiled once, at its first
/// lookup, into one hash table of domain suffixes; a lookup then costs one hash probe per label,
/// from the top-level domain down, and stops at the first suffix that no rule mentions.
/// `scripts/update-public-suffix-list` refreshes the shipped copy.
///
/// Matching follows the list's formal algorithm:
/// - the matching rule with the most labels prevails;
/// - an exception rule (`!www.ck`) prevails over every other rule, and the public suffix is then
///   its domain less the leftmost label (`ck`);
/// - a wildcard rule (`*.ck`) matches any one label in place of the `*`;
/// - when no rule matches, the implicit rule `*` makes the top-level domain the public suffix,
///   so every single-label name (`com`, `localhost`, `corp`) is one;
/// - names compare case-insensitively, and an international label matches in Unicode or in
///   Punycode (`公司.cn` and `xn--55qx5d.cn`); Unicode input should be in NFC, no UTS #46
///   mapping is done.
///
/// A name with one trailing dot, its fully qualified form, is looked up as the same name and the
/// answer keeps the dot: `com.` is a public suffix, `example.com.` is the registrable domain of
/// `www.example.com.`. A name that is empty or has an empty label (`.com`, `a..com`, `com..`)
/// has no public suffix and no registrable domain, and ``isPublicSuffix(_:)`` says true for it,
/// so that it can never scope a cookie.
///
/// ```swift
/// let suffixes = PublicSuffixList.builtIn
/// let isSuffix = suffixes.isPublicSuffix("co.uk")                   // true
/// let isPrivateSuffix = suffixes.isPublicSuffix("github.io")        // true (private section)
/// let domain = suffixes.registrableDomain(for: "www.example.co.uk")  // "example.co.uk"
/// let wildcard = suffixes.publicSuffix(of: "a.b.test.ck")           // "test.ck" (rule *.ck)
/// let exception = suffixes.registrableDomain(for: "www.ck")         // "www.ck" (rule !www.ck)
/// ```
///
/// ## In the cookie jar
/// A cookie whose `Domain` is a public suffix is rejected with `CookieError.Code.publicSuffix`,
/// except when the domain equals the request host: it is then stored as a host-only cookie, as
/// RFC 6265 says. So `Domain=com.` is rejected like `Domain=com`; `Domain=example.com.` from
/// `www.example.com` does not domain-match the host and is rejected too, as Chrome and Firefox
/// do; it is accepted only from a host written with the trailing dot (`www.example.com.`).
///
/// ## When the shipped list cannot be loaded
/// If the resource cannot be found, read or compiled, ``builtIn`` fails closed instead of
/// throwing: it treats every name as a public suffix and keeps the error in
/// ``unavailableReason``. A jar using it then stores cookies without a `Domain` attribute as
/// usual, turns a `Domain` equal to the request host into a host-only cookie, and rejects every
/// other `Domain` cookie; no supercookie gets in. Check ``unavailableReason`` at start-up, or call
/// ``bundled(includingPrivateDomains:)``, to report a broken installation. (When the resource
/// bundle itself is absent, SwiftPM's generated `Bundle.module` stops the process before this
/// code runs: ship `AuthKit_AuthCookie.resources` beside the executable.)
public struct PublicSuffixList: Sendable, Hashable {
    /// Where the rules come from.
    enum Storage: Sendable {
        /// The shipped list, compiled at its first use (``PublicSuffixList/shipped``).
        case shipped
        /// Rules compiled from a text, or the reason there are none (fail closed).
        case loaded(Result<PublicSuffixRules, CookieError>)
    }

    let storage: Storage

    init(storage: Storage) {
        self.storage = storage
    }

    /// The list shipped with AuthCookie, both sections, compiled at its first lookup; fails
    /// closed (see ``unavailableReason``) when the resource cannot be loaded. The default of
    /// ``CookieJarConfiguration/publicSuffixes``.
    public static let builtIn = PublicSuffixList(storage: .shipped)

    /// Compiles a list from the text of a `public_suffix_list.dat` file.
    ///
    /// Each line is read up to its first whitespace; lines starting with `//` are comments, and
    /// the `// ===BEGIN PRIVATE DOMAINS===` … `// ===END PRIVATE DOMAINS===` lines delimit the
    /// private section.
    /// - Parameters:
    ///   - text: The list.
    ///   - includingPrivateDomains: Whether the rules of the private section apply (default
    ///     true, as in browsers' cookie handling); false keeps the registries' rules only.
    /// - Throws: ``CookieError`` with code `.publicSuffixListInvalidRule` and the line number
    ///   for a line that is not a rule.
    public init(text: String, includingPrivateDomains: Bool = true) throws(CookieError) {
        let rules = try PublicSuffixRules.compile(text: text, includingPrivateDomains: includingPrivateDomains)
        self.init(storage: .loaded(.success(rules)))
    }

    /// Compiles a list from rules in the list's syntax: `example`, `*.example`, `!www.example`.
    /// - Throws: ``CookieError`` (`.publicSuffixListInvalidRule`, with the 1-based position as
    ///   its line) for a string that is not a rule.
    public init(rules: some Sequence<String>) throws(CookieError) {
        self.init(storage: .loaded(.success(try PublicSuffixRules.compile(rules: rules))))
    }

    /// A list that treats every name as a public suffix, for when the real one is unavailable.
    /// - Parameter reason: Why there is no list; ``unavailableReason`` returns it.
    public static func unavailable(because reason: CookieError) -> PublicSuffixList {
        PublicSuffixList(storage: .loaded(.failure(reason)))
    }

    /// The list with more rules, in the list's syntax (`myplatform.dev`, `*.apps.example`).
    /// An unavailable list stays unavailable: added rules never make it accept more.
    /// - Throws: ``CookieError`` for a string that is not a rule.
    public func adding(_ rules: some Sequence<String>) throws(CookieError) -> PublicSuffixList {
        guard case .success(let base) = resolved else { return self }
        return PublicSuffixList(storage: .loaded(.success(try PublicSuffixRules.compile(rules: rules, onto: base))))
    }

    /// Why the list is unavailable and treats every name as a public suffix; nil when it has
    /// its rules. For ``builtIn``, reading it loads the shipped list.
    public var unavailableReason: CookieError? {
        if case .failure(let reason) = resolved { return reason }
        return nil
    }

    /// The number of rules compiled; 0 when the list is unavailable.
    public var ruleCount: Int {
        (try? resolved.get())?.ruleCount ?? 0
    }

    /// The public suffix of `domain`: the longest suffix that the list's rules make public.
    ///
    /// `publicSuffix(of: "www.example.co.uk")` is `co.uk`; `publicSuffix(of: "example")` is
    /// `example` (the implicit rule `*`). The answer is lower-cased and keeps a trailing dot.
    /// An unavailable list answers the whole name.
    /// - Returns: Nil when `domain` is empty or has an empty label (`.com`, `a..b`).
    public func publicSuffix(of domain: String) -> String? {
        guard let name = DomainLabels(domain) else { return nil }
        return name.suffix(labels: suffixLabelCount(of: name))
    }

    /// The registrable domain of `domain`: its public suffix plus one more label, the widest
    /// domain a cookie from `domain` may name.
    ///
    /// `registrableDomain(for: "a.b.example.co.uk")` is `example.co.uk`. The answer is
    /// lower-cased and keeps a trailing dot.
    /// - Returns: Nil when `domain` is itself a public suffix, when it is empty or has an empty
    ///   label, and always when the list is unavailable.
    public func registrableDomain(for domain: String) -> String? {
        guard let name = DomainLabels(domain) else { return nil }
        let suffixLabels = suffixLabelCount(of: name)
        guard suffixLabels < name.labelCount else { return nil }
        return name.suffix(labels: suffixLabels + 1)
    }

    /// Whether `domain` is a public suffix, on which no cookie may be set.
    ///
    /// True for `com`, `co.uk`, `com.`, `github.io`, `anything.ck`, and for any name that is
    /// empty or has an empty label; false for `example.com` and `www.ck`. Always true when the
    /// list is unavailable.
    public func isPublicSuffix(_ domain: String) -> Bool {
        guard let name = DomainLabels(domain) else { return true }
        return suffixLabelCount(of: name) == name.labelCount
    }

    /// The number of labels of `name`'s public suffix; all of them when the list is unavailable.
    private func suffixLabelCount(of name: DomainLabels) -> Int {
        guard case .success(let rules) = resolved else { return name.labelCount }
        return rules.publicSuffixLabelCount(ofASCII: Substring(name.ascii))
    }

    /// The rules, or why there are none; the shipped list is loaded at the first call.
    var resolved: Result<PublicSuffixRules, CookieError> {
        switch storage {
        case .shipped: Self.shipped
        case .loaded(let result): result
        }
    }

    /// Two lists are equal when they have the same rules, or are both unavailable.
    public static func == (lhs: PublicSuffixList, rhs: PublicSuffixList) -> Bool {
        if case .shipped = lhs.storage, case .shipped = rhs.storage { return true }
        switch (lhs.resolved, rhs.resolved) {
        case (.success(let left), .success(let right)): return left === right || left.entries == right.entries
        case (.failure, .failure): return true
        default: return false
        }
    }

    /// Hashes the size of the rule table (equal lists have equal tables).
    public func hash(into hasher: inout Hasher) {
        switch resolved {
        case .success(let rules): hasher.combine(rules.entries.count)
        case .failure: hasher.combine(-1)
        }
    }
}
