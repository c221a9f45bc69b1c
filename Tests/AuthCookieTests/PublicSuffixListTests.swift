// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
@testable import AuthCookie

/// The shipped public suffix list and the matching algorithm on every kind of rule.
@Suite struct PublicSuffixListTests {
    let list = PublicSuffixList.builtIn

    // MARK: The shipped list

    @Test func shippedListLoadsFromTheResourceBundle() throws {
        #expect(list.unavailableReason == nil)
        #expect(list.ruleCount > 9_000)
        let url = try #require(Bundle.module.url(forResource: PublicSuffixList.resourceName, withExtension: "dat"))
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.hasPrefix("// This Source Code Form is subject to the terms of the Mozilla Public\n// License, v. 2.0."))
        #expect(text.contains("\n// ===BEGIN ICANN DOMAINS===\n") && text.contains("\n// ===BEGIN PRIVATE DOMAINS===\n"))
        #expect(try PublicSuffixList.bundled() == list)
        #expect(try PublicSuffixList(contentsOf: url) == list)
    }

    /// Every rule in the shipped file, checked by what the algorithm says of it: a normal rule's
    /// domain is a public suffix, any child of a wildcard rule's domain is one, an exception
    /// rule's domain is registrable. The expectations come from the file read here line by line.
    @Test func everyShippedRuleAppliesAsTheAlgorithmSays() throws {
        let url = try #require(Bundle.module.url(forResource: PublicSuffixList.resourceName, withExtension: "dat"))
        let rules = try String(contentsOf: url, encoding: .utf8)
            .split(whereSeparator: \.isNewline)
            .map { String($0.prefix { !$0.isWhitespace }) }
            .filter { !$0.isEmpty && !$0.hasPrefix("//") }
        let exceptions = Set(rules.filter { $0.hasPrefix("!") }.map { String($0.dropFirst()) })
        #expect(rules.count == list.ruleCount)
        var failures: [String] = []
        for rule in rules {
            if rule.hasPrefix("!") {
                let domain = String(rule.dropFirst())
                if list.isPublicSuffix(domain) || list.registrableDomain(for: domain) != domain { failures.append(rule) }
            } else if rule.hasPrefix("*.") {
                let child = "zz-probe" + rule.dropFirst()
                if !list.isPublicSuffix(child) || list.registrableDomain(for: "a." + child) != "a." + child { failures.append(rule) }
            } else if !exceptions.contains(rule) {
                if !list.isPublicSuffix(rule) || list.registrableDomain(for: "zz-probe." + rule) != "zz-probe." + rule { failures.append(rule) }
            }
        }
        #expect(failures.isEmpty, "rules that do not apply: \(failures.prefix(20))")
        #expect(exceptions.count >= 8)  // !www.ck, !city.kobe.jp, …
    }

    // MARK: The official test cases

    /// `checkPublicSuffix(domain, registrable)` from the list's own `tests/test_psl.txt`
    /// (public domain, CC0), every case but the null input; nil: no registrable domain.
    static let officialCases: [(String, String?)] = [
        // Mixed case.
        ("COM", nil), ("example.COM", "example.com"), ("WwW.example.COM", "example.com"),
        // Leading dot.
        (".com", nil), (".example", nil), (".example.com", nil), (".example.example", nil),
        // Unlisted TLD.
        ("example", nil), ("example.example", "example.example"), ("b.example.example", "example.example"),
        ("a.b.example.example", "example.example"),
        // TLD with only 1 rule.
        ("biz", nil), ("domain.biz", "domain.biz"), ("b.domain.biz", "domain.biz"), ("a.b.domain.biz", "domain.biz"),
        // TLD with some 2-level rules.
        ("com", nil), ("example.com", "example.com"), ("b.example.com", "example.com"), ("a.b.example.com", "example.com"),
        ("uk.com", nil), ("example.uk.com", "example.uk.com"), ("b.example.uk.com", "example.uk.com"),
        ("a.b.example.uk.com", "example.uk.com"), ("test.ac", "test.ac"),
        // TLD with only 1 (wildcard) rule.
        ("mm", nil), ("c.mm", nil), ("b.c.mm", "b.c.mm"), ("a.b.c.mm", "b.c.mm"),
        // More complex TLD.
        ("jp", nil), ("test.jp", "test.jp"), ("www.test.jp", "test.jp"), ("ac.jp", nil), ("test.ac.jp", "test.ac.jp"),
        ("www.test.ac.jp", "test.ac.jp"), ("kyoto.jp", nil), ("test.kyoto.jp", "test.kyoto.jp"), ("ide.kyoto.jp", nil),
        ("b.ide.kyoto.jp", "b.ide.kyoto.jp"), ("a.b.ide.kyoto.jp", "b.ide.kyoto.jp"), ("c.kobe.jp", nil),
        ("b.c.kobe.jp", "b.c.kobe.jp"), ("a.b.c.kobe.jp", "b.c.kobe.jp"), ("city.kobe.jp", "city.kobe.jp"),
        ("www.city.kobe.jp", "city.kobe.jp"),
        // TLD with a wildcard rule and exceptions.
        ("ck", nil), ("test.ck", nil), ("b.test.ck", "b.test.ck"), ("a.b.test.ck", "b.test.ck"), ("www.ck", "www.ck"),
        ("www.www.ck", "www.ck"),
        // US K12.
        ("us", nil), ("test.us", "test.us"), ("www.test.us", "test.us"), ("ak.us", nil), ("test.ak.us", "test.ak.us"),
        ("www.test.ak.us", "test.ak.us"), ("k12.ak.us", nil), ("test.k12.ak.us", "test.k12.ak.us"),
        ("www.test.k12.ak.us", "test.k12.ak.us"),
        // IDN labels.
        ("食狮.com.cn", "食狮.com.cn"), ("食狮.公司.cn", "食狮.公司.cn"), ("www.食狮.公司.cn", "食狮.公司.cn"),
        ("shishi.公司.cn", "shishi.公司.cn"), ("公司.cn", nil), ("食狮.中国", "食狮.中国"), ("www.食狮.中国", "食狮.中国"),
        ("shishi.中国", "shishi.中国"), ("中国", nil),
        // Same as above, but punycoded.
        ("xn--85x722f.com.cn", "xn--85x722f.com.cn"), ("xn--85x722f.xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn"),
        ("www.xn--85x722f.xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn"), ("shishi.xn--55qx5d.cn", "shishi.xn--55qx5d.cn"),
        ("xn--55qx5d.cn", nil), ("xn--85x722f.xn--fiqs8s", "xn--85x722f.xn--fiqs8s"),
        ("www.xn--85x722f.xn--fiqs8s", "xn--85x722f.xn--fiqs8s"), ("shishi.xn--fiqs8s", "shishi.xn--fiqs8s"),
        ("xn--fiqs8s", nil),
    ]

    @Test(arguments: officialCases)
    func officialCase(_ domain: String, _ registrable: String?) {
        #expect(list.registrableDomain(for: domain) == registrable)
    }

    // MARK: Each kind of rule

    @Test func normalRulesOfTheICANNSection() {
        for suffix in ["com", "uk", "co.uk", "org.uk", "com.au", "co.jp", "k12.ak.us", "公司.cn", "xn--55qx5d.cn"] {
            #expect(list.isPublicSuffix(suffix), "\(suffix)")
        }
        #expect(list.publicSuffix(of: "shop.example.co.uk") == "co.uk")
        #expect(list.registrableDomain(for: "shop.example.co.uk") == "example.co.uk")
        #expect(!list.isPublicSuffix("example.com") && !list.isPublicSuffix("example.co.uk"))
        // The rule with the most labels wins: uk, co.uk.
        #expect(list.publicSuffix(of: "a.co.uk") == "co.uk" && list.publicSuffix(of: "a.uk") == "uk")
        // No rule: the implicit "*" makes the top-level domain the suffix.
        #expect(list.isPublicSuffix("localhost") && list.isPublicSuffix("corp-intranet"))
        #expect(list.registrableDomain(for: "app.example.corp-intranet") == "example.corp-intranet")
    }

    @Test func wildcardRules() {
        // *.ck, *.mm, *.kawasaki.jp (ICANN); *.compute.amazonaws.com, *.platformsh.site (private).
        for suffix in ["anything.ck", "c.mm", "x.kawasaki.jp", "us-east-2.compute.amazonaws.com", "project.platformsh.site"] {
            #expect(list.isPublicSuffix(suffix), "\(suffix)")
        }
        // The wildcard's own domain is a suffix by the implicit rule, its children by the wildcard.
        #expect(list.isPublicSuffix("ck"))
        #expect(list.publicSuffix(of: "a.shop.example.ck") == "example.ck")
        #expect(list.registrableDomain(for: "a.shop.example.ck") == "shop.example.ck")
        #expect(list.publicSuffix(of: "ec2-1-2-3-4.us-east-2.compute.amazonaws.com") == "us-east-2.compute.amazonaws.com")
        #expect(list.registrableDomain(for: "app.project.platformsh.site") == "app.project.platformsh.site")
    }

    @Test func exceptionRulesBeatWildcards() {
        // *.ck with !www.ck; *.kobe.jp with !city.kobe.jp.
        #expect(!list.isPublicSuffix("www.ck"))
        #expect(list.publicSuffix(of: "www.ck") == "ck")
        #expect(list.registrableDomain(for: "shop.www.ck") == "www.ck")
        #expect(!list.isPublicSuffix("city.kobe.jp"))
        #expect(list.publicSuffix(of: "www.city.kobe.jp") == "kobe.jp")
        #expect(list.isPublicSuffix("other.kobe.jp"))
    }

    @Test func privateSectionRules() throws {
        for suffix in ["github.io", "blogspot.com", "herokuapp.com", "appspot.com", "vercel.app", "netlify.app",
                       "pages.dev", "workers.dev", "s3.amazonaws.com", "githubusercontent.com", "uk.com"] {
            #expect(list.isPublicSuffix(suffix), "\(suffix)")
        }
        #expect(list.registrableDomain(for: "blog.someone.github.io") == "someone.github.io")
        #expect(!list.isPublicSuffix("github.com"))

        // Without the private section the registries' rules alone apply.
        let icann = try PublicSuffixList.bundled(includingPrivateDomains: false)
        #expect(icann.ruleCount > 5_000 && icann.ruleCount < list.ruleCount)
        #expect(!icann.isPublicSuffix("github.io") && icann.registrableDomain(for: "me.github.io") == "github.io")
        #expect(icann.isPublicSuffix("co.uk") && icann.isPublicSuffix("anything.ck") && !icann.isPublicSuffix("www.ck"))
        #expect(icann != list)
    }

    @Test func aTrailingDotIsTheSameNameFullyQualified() {
        for suffix in ["com.", "co.uk.", "github.io.", "anything.ck.", "COM."] {
            #expect(list.isPublicSuffix(suffix), "\(suffix)")
        }
        #expect(!list.isPublicSuffix("example.com.") && !list.isPublicSuffix("www.ck."))
        #expect(list.publicSuffix(of: "www.example.com.") == "com.")
        #expect(list.registrableDomain(for: "www.example.com.") == "example.com.")
        #expect(list.registrableDomain(for: "a.b.test.ck.") == "b.test.ck.")
        #expect(list.registrableDomain(for: "com.") == nil)
    }

    @Test(arguments: ["", ".", "..", ".com", "com..", "a..com", ".example.com", "example..com."])
    func aNameWithAnEmptyLabelIsNeverRegistrable(_ name: String) {
        #expect(list.isPublicSuffix(name))
        #expect(list.publicSuffix(of: name) == nil)
        #expect(list.registrableDomain(for: name) == nil)
    }

    @Test func casesAndScriptsDoNotMatter() {
        #expect(list.registrableDomain(for: "WWW.Example.CO.UK") == "example.co.uk")
        #expect(list.isPublicSuffix("GitHub.IO"))
        // Unicode and Punycode labels mix: the suffix rule 公司.cn is stored in both forms.
        #expect(list.registrableDomain(for: "www.食狮.xn--55qx5d.cn") == "食狮.xn--55qx5d.cn")
        #expect(list.registrableDomain(for: "WWW.xn--85x722f.公司.CN") == "xn--85x722f.公司.cn")
    }

    @Test func concurrentLookupsAgree() async {
        let answers = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    PublicSuffixList.builtIn.isPublicSuffix(index.isMultiple(of: 2) ? "github.io" : "co.uk")
                        && PublicSuffixList.builtIn.registrableDomain(for: "a.b.example.co.uk") == "example.co.uk"
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(answers.count == 64 && answers.allSatisfy { $0 })
    }
}
