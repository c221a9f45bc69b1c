// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// keyring-helper: a second OS process for AuthKeyring's tests, to show that a vault sealed with
// a key from the OS keyring opens in another process. Not part of the library.
//
//   keyring-helper seal <database> <service> <access-token>
//       Opens the SQLite store <database>, configures `useKeyringCipher(service:)` (the Secret
//       Service of DBUS_SESSION_BUS_ADDRESS; the key is created there on first use), saves a
//       bearer token set for the account api/alice, prints `sealed`.
//   keyring-helper open <database> <service>
//       The same configuration; prints `token <access-token>` read from the store, `none` when
//       there is no record, or `error <code>` for an AuthKit error.
//
// Exit status 0 when it printed its answer (an `error` line included), 2 on bad usage.
import AuthCore
import AuthKeyring
import AuthSQLiteStore
import Foundation

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))  // unbuffered: the test reads a pipe
}

#if os(Linux)
let arguments = CommandLine.arguments
guard (arguments.count == 5 && arguments[1] == "seal") || (arguments.count == 4 && arguments[1] == "open") else {
    FileHandle.standardError.write(Data("usage: keyring-helper seal <database> <service> <access-token> | open <database> <service>\n".utf8))
    exit(2)
}
let account = AccountKey(namespace: "api", account: "alice")
let container = AuthContainer()
do {
    try await container.useSQLiteStore(at: arguments[2])
    try await container.useKeyringCipher(service: arguments[3])
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
    say("error keyring.\(error.code)")
} catch let error as CredentialStoreError {
    say("error store.\(error.code)")
} catch let error as AuthError {
    say("error auth.\(error.code)")
} catch {
    say("error \(type(of: error))")
}
#else
FileHandle.standardError.write(Data("keyring-helper: the Secret Service is Linux only\n".utf8))
exit(2)
#endif
