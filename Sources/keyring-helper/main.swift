// A process that AuthKeyring's tests start, to show that a vault sealed with a keyring key
// opens in another process. Not part of the library.
//
//   keyring-helper seal <store-directory> <service> <access-token>
//       Configures a file store and the keyring cipher of <service> (the Secret Service of
//       DBUS_SESSION_BUS_ADDRESS, key created on first use), stores a bearer token set for the
//       account api/alice, prints `sealed`.
//   keyring-helper open <store-directory> <service>
//       The same configuration; prints `token <access-token>` read from the store, or
//       `error <code>` for an AuthKit error.
import AuthCore
import AuthFileStore
import AuthKeyring
import Foundation

#if os(Linux)

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard arguments.count >= 4, ["seal", "open"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: keyring-helper seal|open <store-directory> <service> [access-token]\n".utf8))
    exit(2)
}
let account = AccountKey(namespace: "api", account: "alice")
let container = AuthContainer()
do {
    try container.useFileStore(at: URL(fileURLWithPath: arguments[2]))
    try await container.useKeyringCipher(service: arguments[3], keyring: SecretServiceKeyring(options: .init(allowsPrompts: false)))
    let vault = container[CredentialVaultKey.self]
    if arguments[1] == "seal" {
        try await vault.save(BearerTokenSet(accessToken: arguments[4]), for: account)
        say("sealed")
    } else if let tokens = try await vault.load(BearerTokenSet.self, for: account) {
        say("token \(tokens.accessToken.reveal)")
    } else {
        say("none")
    }
} catch let error as KeyringError {
    say("error \(error.code)")
} catch let error as AuthError {
    say("error \(error.code)")
} catch let error as CredentialStoreError {
    say("error \(error.code)")
} catch {
    say("error \(type(of: error))")
}
#else
FileHandle.standardError.write(Data("keyring-helper: the Secret Service is Linux only\n".utf8))
exit(2)
#endif
