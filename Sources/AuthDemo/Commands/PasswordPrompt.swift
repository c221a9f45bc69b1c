// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a password from standard input without echoing it when that is a terminal.
enum PasswordPrompt {
    /// Prints `prompt` (terminals only) and reads one line with echo turned off; from a pipe,
    /// reads one line as it is. Nil at end of input.
    ///
    /// A signal that ends the process at the prompt (Ctrl-C, Ctrl-\, a closed terminal, `kill`)
    /// first turns echo back on: before, the shell was left typing blind.
    static func read(_ prompt: String) -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return readLine(strippingNewline: true) }
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return readLine(strippingNewline: true) }
        terminalBeforePrompt.pointee = saved
        let previous = endingSignals.map { number in
            let previous = signal(number, restoreTerminalAndEnd)
            // A signal the process ignores (SIGINT in a background job) stays ignored.
            if isIgnored(previous) { signal(number, SIG_IGN) }
            return previous
        }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            for (number, handler) in zip(endingSignals, previous) { signal(number, handler) }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true)
    }
}

/// The signals whose default action ends the process, which a prompt catches to restore the
/// terminal first.
private let endingSignals = [SIGINT, SIGQUIT, SIGTERM, SIGHUP]

/// The terminal's settings from before the prompt turned echo off, for the signal handler (set
/// before the handler is installed, read only by it): memory of its own, which the handler reads
/// through a pointer, without the access checks of a Swift variable.
nonisolated(unsafe) private let terminalBeforePrompt = UnsafeMutablePointer<termios>.allocate(capacity: 1)

/// Whether `handler`, as `signal` returns it, is `SIG_IGN` (compared as addresses: the C
/// library's constant is a number cast to a function pointer).
private func isIgnored<Handler>(_ handler: Handler) -> Bool {
    unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
}

/// Restores the terminal, then ends the process by `number` as its default action would. Only
/// async-signal-safe calls: `tcsetattr`, `write`, `signal`, `raise`.
private func restoreTerminalAndEnd(_ number: Int32) {
    tcsetattr(STDIN_FILENO, TCSANOW, terminalBeforePrompt)
    var newline: UInt8 = 10
    _ = write(STDERR_FILENO, &newline, 1)
    signal(number, SIG_DFL)
    raise(number)
}
