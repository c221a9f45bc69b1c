import ArgumentParser
import AuthHTTPClient
import AuthCore
import AuthMFA
import Foundation
import HTTPTypes

/// `auth-demo login`: signs a user in and stores the tokens.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "login", abstract: "Sign in and store the tokens (asks for an MFA code when needed).")

    @OptionGroup var common: CommonOptions
    @Option(help: "The user name.") var username: String
    @Option(help: "The password (asked for without echo when omitted; read from standard input when it is not a terminal).") var password: String?
    @Flag(help: "Register the user first.") var register = false
    @Option(help: "A base32 TOTP secret to answer an MFA challenge without asking.") var totpSecret: String?

    func run() async throws {
        guard let password = self.password ?? PasswordPrompt.read("password for \(username): "), !password.isEmpty else {
            throw ValidationError("no password given: pass --password or type it when asked")
        }
        let base = try common.baseURL
        try await common.withContainer { container, transport in
            if register {
                let body = try JSONEncoder().encode(["username": username, "password": password])
                let response = try await transport.send(AuthRequest(method: .post, url: base.appending(path: "auth/register"), headerFields: [.contentType: "application/json"], body: body))
                print("register: \(response.status.code)")
            }
            let codes: any MFACodeProvider
            if let totpSecret {
                codes = TOTPCodeProvider(totp: try TOTP(secret: OTPSecret(base32: totpSecret)))
            } else {
                codes = ClosureMFACodeProvider { _, method in
                    print("\(method.rawValue) code: ", terminator: "")
                    return readLine(strippingNewline: true) ?? ""
                }
            }
            let tokens = try await PasswordSignIn(loginURL: base.appending(path: "auth/login"), verifyURL: base.appending(path: "auth/mfa/verify"), transport: transport, codeProvider: codes).signIn(username: username, password: password)
            let client = container.makeClient(for: AccountKey(namespace: common.namespace, account: username), strategy: try common.bearer(transport))
            try await client.signIn(tokens)
            print("signed in as \(username); tokens stored in \(common.store)")
        }
    }
}
