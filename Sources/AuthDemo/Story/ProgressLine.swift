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

/// A progress line redrawn in place on a terminal; elsewhere (a pipe, a log) only its last state
/// is printed, so a log gets one line rather than one per update.
enum ProgressLine {
    /// Shows `text`; `final` ends the line.
    static func show(_ text: String, final: Bool) {
        if isatty(STDOUT_FILENO) == 1 {
            print("\r\u{1B}[2K" + text, terminator: final ? "\n" : "")
            fflush(nil)  // every output stream: `print` buffers
        } else if final {
            print(text)
        }
    }
}
