// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import AuthMFA
import Foundation
import HTTPTypes

/// `auth-demo otp`: prints the current TOTP code of a secret or `otpauth://` URI.
struct OTPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "otp", abstract: "Print the current one-time password of a secret or otpauth:// URI.")

    @Argument(help: "A base32 secret or an otpauth:// URI.") var secret: String

    func run() async throws {
        let totp: TOTP
        if secret.hasPrefix("otpauth://") {
            totp = try OTPKeyURI(parsing: secret).makeTOTP()
        } else {
            totp = try TOTP(secret: OTPSecret(base32: secret))
        }
        print(try totp.code(at: Date()))
    }
}
