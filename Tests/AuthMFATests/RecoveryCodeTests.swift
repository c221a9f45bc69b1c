// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import Testing
@testable import AuthMFA

@Suite struct RecoveryCodeTests {
    let account = AccountKey(namespace: "example", account: "alice")

    @Test func generatedCodesAreDistinctAndWellFormed() {
        let codes = RecoveryCode.generate()
        #expect(codes.count == 10)
        #expect(Set(codes.map(\.normalized)).count == 10)
        for code in codes {
            #expect(code.normalized.count == 8)
            #expect(code.formatted.count == 9)
            #expect(code.formatted.dropFirst(4).first == "-")
            #expect(code.normalized.allSatisfy { "0123456789abcdefghjkmnpqrstvwxyz".contains($0) })
        }
        #expect(RecoveryCode.generate(count: 200).count == 200)
        #expect(RecoveryCode.entropyBits >= 40)
    }

    @Test func normalizationIgnoresCaseSpacesHyphensAndLookAlikes() throws {
        let code = try #require(RecoveryCode(normalizing: "ab1c-0def"))
        #expect(RecoveryCode(normalizing: "AB1C0DEF") == code)
        #expect(RecoveryCode(normalizing: " ab1c 0def ") == code)
        #expect(RecoveryCode(normalizing: "ABlC-ODEF") == code)  // l → 1, O → 0
        #expect(RecoveryCode(normalizing: "AbIc-oDeF") == code)  // I → 1
        #expect(RecoveryCode(normalizing: "ab1c-0de") == nil)
        #expect(RecoveryCode(normalizing: "ab1c-0defg") == nil)
        #expect(RecoveryCode(normalizing: "ab1c-0deu") == nil)   // u is not in the alphabet
    }

    @Test func storedFormContainsNoCodeInPlainText() async throws {
        let store = InMemoryCredentialStore()
        let vault = RecoveryCodeVault(store: store)
        let codes = try await vault.regenerate(for: account)
        let envelope = try #require(try await store.get(account.item(RecoveryCodeVault.item)))
        #expect(envelope.kind == "otp.recovery")
        let payload = envelope.payload
        for code in codes {
            for form in [code.normalized, code.formatted, code.normalized.uppercased(), code.formatted.uppercased()] {
                #expect(payload.range(of: Data(form.utf8)) == nil)
            }
        }
        let decoded = try JSONDecoder().decode(RecoveryCodeSet.self, from: payload)
        #expect(decoded.entries.count == 10)
        #expect(Set(decoded.entries.map(\.salt)).count == 10)
    }

    @Test func aCodeWorksOnceAndOthersStillWork() async throws {
        let store = InMemoryCredentialStore()
        let vault = RecoveryCodeVault(store: store)
        let codes = try await vault.regenerate(for: account, count: 5)
        #expect(try await vault.remaining(for: account) == 5)
        #expect(try await vault.redeem(codes[2].formatted, for: account))
        #expect(try await vault.redeem(codes[2].formatted, for: account) == false)
        #expect(try await vault.redeem(codes[2].normalized.uppercased(), for: account) == false)
        #expect(try await vault.remaining(for: account) == 4)
        // A new vault over the same store sees the consumption.
        let reopened = RecoveryCodeVault(store: store)
        #expect(try await reopened.redeem(codes[2].formatted, for: account) == false)
        #expect(try await reopened.redeem(codes[0].formatted.uppercased().replacingOccurrences(of: "-", with: " "), for: account))
        #expect(try await reopened.remaining(for: account) == 3)
    }

    @Test func wrongMalformedAndUnknownAccountAreRefused() async throws {
        let vault = RecoveryCodeVault(store: InMemoryCredentialStore())
        let codes = try await vault.regenerate(for: account, count: 3)
        let outsider = RecoveryCode.generate(count: 20).first { candidate in !codes.contains(candidate) }
        #expect(try await vault.redeem(try #require(outsider).formatted, for: account) == false)
        #expect(try await vault.redeem("not a code", for: account) == false)
        #expect(try await vault.redeem("", for: account) == false)
        #expect(try await vault.redeem(codes[0].formatted, for: AccountKey(namespace: "example", account: "bob")) == false)
        #expect(try await vault.remaining(for: account) == 3)
    }

    @Test func regeneratingInvalidatesTheOldCodes() async throws {
        let vault = RecoveryCodeVault(store: InMemoryCredentialStore())
        let old = try await vault.regenerate(for: account)
        let new = try await vault.regenerate(for: account)
        #expect(try await vault.redeem(old[0].formatted, for: account) == false)
        #expect(try await vault.redeem(new[0].formatted, for: account))
    }

    @Test func concurrentRedemptionsOfOneCodeSucceedOnce() async throws {
        let vault = RecoveryCodeVault(store: InMemoryCredentialStore())
        let account = self.account
        let code = try await vault.regenerate(for: account, count: 3)[1].formatted
        let successes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 { group.addTask { try await vault.redeem(code, for: account) } }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(successes == 1)
    }

    /// Two vaults (two servers) over one store redeem two different codes at once, both reading
    /// the codes before either writes: both codes are accepted, both count as used, and the
    /// first cannot be used again (neither redemption undid the other).
    @Test func concurrentRedemptionsThroughTwoVaultsAreBothKept() async throws {
        let store = InMemoryCredentialStore()
        let gated = GatedStore(inner: store, item: RecoveryCodeVault.item, barrier: Barrier(parties: 2))
        let first = RecoveryCodeVault(store: gated)
        let second = RecoveryCodeVault(store: gated)
        let account = self.account
        let codes = try await first.regenerate(for: account, count: 5)  // writes only
        async let redeemedFirst = first.redeem(codes[0].formatted, for: account)
        async let redeemedSecond = second.redeem(codes[1].formatted, for: account)
        #expect(try await [redeemedFirst, redeemedSecond] == [true, true])
        #expect(try await first.remaining(for: account) == 3)
        #expect(try await second.redeem(codes[0].formatted, for: account) == false)
        #expect(try await first.redeem(codes[1].formatted, for: account) == false)
    }

    /// When other writers change the codes during every attempt to consume one, the user gets a
    /// typed error to retry on, and the code is not consumed.
    @Test func endlessConflictsAreATypedErrorAndConsumeNothing() async throws {
        let store = InMemoryCredentialStore()
        let codes = try await RecoveryCodeVault(store: store).regenerate(for: account, count: 3)
        let vault = RecoveryCodeVault(store: AlwaysConflictingStore(inner: store))
        do {
            _ = try await vault.redeem(codes[0].formatted, for: account)
            Issue.record("redeemed although every write conflicted")
        } catch let error as MFAError {
            #expect(error.code == .writeConflict)
        }
        #expect(try await RecoveryCodeVault(store: store).remaining(for: account) == 3)
    }

    @Test func codeSetRedeemsInMemoryToo() throws {
        let codes = RecoveryCode.generate(count: 3)
        var set = RecoveryCodeSet(codes: codes)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(set.contains(codes[1].formatted))
        let redeemed = set.redeem(codes[1].formatted, at: date)
        #expect(redeemed)
        #expect(set.redeem(codes[1].formatted, at: date) == false)
        #expect(!set.contains(codes[1].formatted))
        #expect(set.entries[1].usedAt == date)
        #expect(set.remaining == 2)
    }
}
