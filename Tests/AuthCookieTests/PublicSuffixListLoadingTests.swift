// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
@testable import AuthCookie

/// Lists from text, files and rule strings; loading failures, which fail closed.
@Suite struct PublicSuffixListLoadingTests {
    let list = PublicSuffixList.builtIn

    // MARK: The list format

    @Test func compilesTheListFormat() throws {
        let text = """
            // A header comment.\r
            // ===BEGIN ICANN DOMAINS===\r
            test\r
            co.test   and anything after whitespace is ignored\r
            *.wild.test\r
            !open.wild.test\r
            // ===END ICANN DOMAINS===\r
            // ===BEGIN PRIVATE DOMAINS===\r
            platform.test\r
            // ===END PRIVATE DOMAINS===\r

            """
        let custom = try PublicSuffixList(text: text)
        #expect(custom.ruleCount == 5)
        #expect(custom.registrableDomain(for: "a.b.co.test") == "b.co.test")
        #expect(custom.registrableDomain(for: "a.b.c.wild.test") == "b.c.wild.test")
        #expect(custom.registrableDomain(for: "a.open.wild.test") == "open.wild.test")
        #expect(custom.isPublicSuffix("platform.test"))
        // The shipped list's rules are not in a custom list: only the implicit "*".
        #expect(!custom.isPublicSuffix("co.uk"))

        let withoutPrivate = try PublicSuffixList(text: text, includingPrivateDomains: false)
        #expect(withoutPrivate.ruleCount == 4 && !withoutPrivate.isPublicSuffix("platform.test"))
    }

    @Test func rulesAndAddedRules() throws {
        let custom = try PublicSuffixList(rules: ["example", "*.apps.example", "!www.apps.example"])
        #expect(custom.isPublicSuffix("x.apps.example") && !custom.isPublicSuffix("www.apps.example"))
        let more = try list.adding(["platform.test", "*.hosted.test"])
        #expect(more.ruleCount == list.ruleCount + 2)
        #expect(more.isPublicSuffix("platform.test") && more.isPublicSuffix("a.hosted.test") && more.isPublicSuffix("co.uk"))
        #expect(!list.isPublicSuffix("platform.test"))
        let again = try list.adding(["platform.test", "*.hosted.test"])
        #expect(more != list && more == again)
    }

    @Test(arguments: [
        ("a..b", 1), (".a", 1), ("a.", 1), ("!single", 1), ("!*.x", 1), ("a.*.b", 1), ("*", 0), ("x.*", 1), ("a!.b", 1),
    ])
    func rejectsWhatIsNotARule(_ rule: String, _ errors: Int) {
        do {
            _ = try PublicSuffixList(rules: ["fine.test", rule])
            #expect(errors == 0, "'\(rule)' was accepted")
        } catch {
            #expect(errors == 1)
            #expect(error.code == .publicSuffixListInvalidRule && error.line == 2)
        }
    }

    @Test func anInvalidLineIsReportedWithItsNumber() {
        #expect {
            try PublicSuffixList(text: "// comment\ncom\n\nbad..rule\n")
        } throws: { error in
            guard let error = error as? CookieError else { return false }
            return error.code == .publicSuffixListInvalidRule && error.line == 4 && error.description.contains("bad..rule")
        }
    }

    // MARK: Loading failures fail closed

    @Test func loadingFailuresAreTyped() throws {
        func code(_ load: () throws -> Void) -> CookieError.Code? {
            do { try load(); return nil } catch { return (error as? CookieError)?.code }
        }
        #expect(code { _ = try PublicSuffixList.loadShippedRules(at: nil, includingPrivateDomains: true) } == .publicSuffixListMissing)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("psl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("absent.dat")
        #expect(code { _ = try PublicSuffixList.loadShippedRules(at: missing, includingPrivateDomains: true) } == .publicSuffixListUnreadable)
        do {
            _ = try PublicSuffixList(contentsOf: missing)
            Issue.record("a missing file loaded")
        } catch {
            #expect(error.underlying != nil)
        }

        let binary = directory.appendingPathComponent("binary.dat")
        try Data([0x63, 0x6F, 0x6D, 0x0A, 0xFF, 0xFE]).write(to: binary)
        #expect(code { _ = try PublicSuffixList.loadShippedRules(at: binary, includingPrivateDomains: true) } == .publicSuffixListMalformed)

        let noSections = directory.appendingPathComponent("nosections.dat")
        try Data("com\nco.uk\n".utf8).write(to: noSections)
        #expect(code { _ = try PublicSuffixList.loadShippedRules(at: noSections, includingPrivateDomains: true) } == .publicSuffixListMalformed)
        // A file of one's own needs no sections.
        #expect(try PublicSuffixList(contentsOf: noSections).isPublicSuffix("co.uk"))
    }

    @Test func anUnavailableListTreatsEveryNameAsAPublicSuffix() throws {
        let reason = CookieError(code: .publicSuffixListMissing, message: "test")
        let closed = PublicSuffixList.unavailable(because: reason)
        #expect(closed.unavailableReason?.code == .publicSuffixListMissing)
        #expect(closed.ruleCount == 0)
        for name in ["example.com", "www.example.co.uk", "com", "example.com."] {
            #expect(closed.isPublicSuffix(name), "\(name)")
            #expect(closed.registrableDomain(for: name) == nil)
        }
        #expect(closed.publicSuffix(of: "WWW.Example.com.") == "www.example.com.")
        // Adding rules never makes it accept more.
        #expect(try closed.adding(["platform.test"]).isPublicSuffix("example.com"))
        #expect(closed == PublicSuffixList.unavailable(because: reason) && closed != list)
    }
}
