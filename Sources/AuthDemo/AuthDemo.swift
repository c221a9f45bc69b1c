// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import AuthCore
import Foundation

/// `auth-demo`: AuthKit's sample composition. With no arguments it runs the whole story against
/// an in-process AuthTestServer; subcommands do one thing each against a real server.
@main
struct AuthDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth-demo",
        abstract: "AuthKit's sample: the whole story when run without arguments, or one action against a server.",
        subcommands: [StoryCommand.self, ServeCommand.self, LoginCommand.self, RequestCommand.self, AccountsCommand.self, OTPCommand.self]
    )

    /// Runs the story when there are no arguments, else the subcommand named. An unknown option
    /// is reported with the usage of `auth-demo` itself (a default subcommand would claim it).
    /// Output goes out as it is printed (``print(_:separator:terminator:)``), and an AuthKit
    /// error ends the run with one line: its message, not its chain of causes.
    static func main() async {
        let arguments = CommandLine.arguments.count > 1 ? Array(CommandLine.arguments.dropFirst()) : ["story"]
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as AuthError {
            FileHandle.standardError.write(Data("auth-demo: \(error.message)\n".utf8))
            Self.exit(withError: ExitCode.failure)
        } catch {
            Self.exit(withError: error)
        }
    }
}

/// `print` for auth-demo: each call goes to standard output at once, also when it is a pipe
/// (where C's buffered `stdout` would hold a device code until 4 KiB had gathered).
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let text = items.map { "\($0)" }.joined(separator: separator) + terminator
    FileHandle.standardOutput.write(Data(text.utf8))
}
