#if os(Linux)
import AuthCore
import AuthFileStore
import AuthKeyring
import AuthTesting
import Foundation
import Testing

/// `useKeyringCipher(service:)`: the vault's key created in the keyring on first use, found
/// there afterwards, in this process and in another one.
@Suite(.enabled(if: PrivateSecretService.shouldRun, PrivateSecretService.disabledNote), .timeLimit(.minutes(5)))
struct KeyringCipherTests {
    let alice = AccountKey(namespace: "api", account: "alice")

    @Test func theKeyIsCreatedOnFirstUseAndFoundAfterwards() async throws {
        try await PrivateSecretService.with { service in
            let keyring = SecretServiceKeyring(options: .init(busAddress: service.busAddress))
            let item = KeyringItem(service: "dev.authkit.cipher", account: KeyringVaultKey.defaultAccount)
            #expect(try await keyring.secret(for: item) == nil)

            let store = InMemoryCredentialStore()
            let first = AuthContainer()
            first.override(CredentialStoreKey.self, with: store)
            try await first.useKeyringCipher(service: "dev.authkit.cipher", keyring: keyring)
            try await first[CredentialVaultKey.self].save(BearerTokenSet(accessToken: "token-of-alice"), for: alice)
            let created = try #require(try await keyring.secret(for: item))
            #expect(created.count == 32)

            // Stored sealed: the record's payload does not hold the token.
            let record = try #require(try await store.get(alice.item(CredentialVault.credentialItem)))
            #expect(!String(decoding: record.payload, as: UTF8.self).contains("token-of-alice"))

            // A second container finds the same key and opens the record.
            let second = AuthContainer()
            second.override(CredentialStoreKey.self, with: store)
            try await second.useKeyringCipher(service: "dev.authkit.cipher", keyring: keyring)
            #expect(try await second[CredentialVaultKey.self].load(BearerTokenSet.self, for: alice)?.accessToken.reveal == "token-of-alice")
            #expect(try await keyring.secret(for: item)?.isEqual(to: created) == true)
        }
    }

    @Test func aVaultSealedWithTheKeyringKeyOpensInANewProcess() async throws {
        try await PrivateSecretService.with { service in
            let folder = service.directory + "/store"
            let sealer = try HelperProcess(named: "keyring-helper", arguments: ["seal", folder, "dev.authkit.process", "token-across-processes"], environment: service.environment)
            #expect(await sealer.remainingLines() == ["sealed"])

            // On disk, nothing of the token.
            let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
            #expect(!files.isEmpty)
            for file in files {
                let bytes = FileManager.default.contents(atPath: folder + "/" + file) ?? Data()
                #expect(!String(decoding: bytes, as: UTF8.self).contains("token-across-processes"))
            }

            let opener = try HelperProcess(named: "keyring-helper", arguments: ["open", folder, "dev.authkit.process"], environment: service.environment)
            #expect(await opener.remainingLines() == ["token token-across-processes"])

            // Without the keyring's key (deleted), the store cannot be opened: a new key is made,
            // and the sealed record stays unreadable rather than being read as something else.
            let keyring = SecretServiceKeyring(options: .init(busAddress: service.busAddress))
            #expect(try await keyring.deleteSecret(for: KeyringItem(service: "dev.authkit.process", account: KeyringVaultKey.defaultAccount)))
            let stranger = try HelperProcess(named: "keyring-helper", arguments: ["open", folder, "dev.authkit.process"], environment: service.environment)
            #expect(await stranger.remainingLines() == ["error cipher"])
        }
    }

    @Test func aStoredKeyOfTheWrongLengthIsReportedAndKept() async throws {
        try await PrivateSecretService.with { service in
            let keyring = SecretServiceKeyring(options: .init(busAddress: service.busAddress))
            let item = KeyringItem(service: "dev.authkit.short", account: KeyringVaultKey.defaultAccount)
            try await keyring.setSecret(KeyringSecret(bytes: Array("sixteen bytes!!!".utf8)), for: item, label: "not a key")
            let container = AuthContainer()
            await #expect { try await container.useKeyringCipher(service: "dev.authkit.short", keyring: keyring) } throws: { error in
                guard let error = error as? KeyringError else { return false }
                return error.code == .malformedAnswer && !error.message.contains("sixteen")
            }
            #expect(try await keyring.secret(for: item)?.withUnsafeBytes { Array($0) } == Array("sixteen bytes!!!".utf8))
        }
    }

    @Test func aLockedKeyringStopsTheConfigurationWithItsError() async throws {
        try await PrivateSecretService.with { service in
            let keyring = SecretServiceKeyring(options: .init(allowsPrompts: false, busAddress: service.busAddress))
            let container = AuthContainer()
            try await container.useKeyringCipher(service: "dev.authkit.locked", keyring: keyring)
            service.lock()
            let later = AuthContainer()
            await #expect { try await later.useKeyringCipher(service: "dev.authkit.locked", keyring: keyring) } throws: {
                ($0 as? KeyringError)?.code == .locked
            }
        }
    }
}
#endif
