import AuthTesting
import Foundation
import Testing

/// Issue 18 item 7: `auth-demo` run as a user would, with bad input. Each case must end with a
/// message that says what was wrong and a non-zero exit status, never a trap.
@Suite struct AuthDemoInputTests {
    static func demo(_ arguments: [String], input: String = "") async throws -> (status: Int32, output: String) {
        try await WorkerProcess.run(PackageExecutable.url(named: "auth-demo"), arguments, input: input, errors: true)
    }

    @Test(arguments: [
        (["story", "--burst=-5"], "--burst must be between 1 and 10000"),
        (["serve", "--port", "99999"], "--port must be between 0 and 65535"),
        (["serve", "--access-lifetime", "0"], "--access-lifetime must be at least 1 second"),
        (["request", "--account", "alice", "--server", "not a url"], "--server must be an absolute URL"),
    ])
    func badOptionsAreRefusedWithAMessage(arguments: [String], message: String) async throws {
        let result = try await Self.demo(arguments)
        #expect(result.status != 0 && result.status < 128, "exit status \(result.status)")
        #expect(result.output.contains(message), "said: \(result.output)")
    }

    @Test func aWrongPasswordSaysSoAndAnErrorStatusFailsTheRequest() async throws {
        try await Harness.run { h in
            try await h.register("carol")
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKitDemo-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let common = ["--server", h.base.absoluteString, "--store", folder.appendingPathComponent("credentials.sqlite").path]

            let wrong = try await Self.demo(["login", "--username", "carol"] + common, input: "not her password\n")
            #expect(wrong.status == 1)
            #expect(wrong.output.contains("refused the user name or password"), "said: \(wrong.output)")
            #expect(!wrong.output.contains("not her password"))
            #expect(!wrong.output.contains("reauthenticationRequired"))

            let empty = try await Self.demo(["login", "--username", "carol"] + common, input: "")
            #expect(empty.status != 0 && empty.output.contains("no password given"), "said: \(empty.output)")

            let right = try await Self.demo(["login", "--username", "carol"] + common, input: "correct horse battery staple\n")
            #expect(right.status == 0, "said: \(right.output)")
            #expect(!right.output.contains("correct horse"))

            let found = try await Self.demo(["request", "--account", "carol"] + common + ["/me"])
            #expect(found.status == 0 && found.output.hasPrefix("200"), "said: \(found.output)")
            let missing = try await Self.demo(["request", "--account", "carol"] + common + ["/no-such-path"])
            #expect(missing.status == 1 && missing.output.hasPrefix("404"), "said: \(missing.output)")

            // A body goes out with its content type: the echo route sends it back.
            let posted = try await Self.demo(["request", "--account", "carol", "--method", "POST", "--data", #"{"note":"hi"}"#] + common + ["/echo"])
            #expect(posted.output.contains(#"hi"#), "said: \(posted.output)")
        }
    }
}
