import ArgumentParser
import AuthCore
import Foundation
import HTTPTypes

/// `auth-demo request`: sends one request as a stored account.
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "request", abstract: "Send a request as a stored account, renewing its token if needed.")

    @OptionGroup var common: CommonOptions
    @Option(help: "The account to act as.") var account: String
    @Option(help: "The HTTP method.") var method = "GET"
    @Argument(help: "The path on the server, such as /me.") var path = "/me"

    func run() async throws {
        let base = try common.baseURL
        try await common.withContainer { container, transport in
            let client = container.makeClient(for: AccountKey(namespace: common.namespace, account: account), strategy: try common.bearer(transport))
            guard let url = URL(string: path, relativeTo: base)?.absoluteURL else { throw ValidationError("bad path \(path)") }
            guard let verb = HTTPRequest.Method(method.uppercased()) else { throw ValidationError("bad method \(method)") }
            let response = try await client.send(verb, url)
            print("\(response.status.code) \(response.status.reasonPhrase)")
            print(String(decoding: response.body, as: UTF8.self))
        }
    }
}

