import ArgumentParser
import AuthCore
import AuthHTTPClient
import AuthSQLiteStore
import AuthTestServer
import Foundation

/// The default command: the whole story against an in-process server and a SQLite store in a
/// temporary folder.
struct StoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "story", abstract: "Run the whole story (the default).")

    @Option(help: "Concurrent requests per user in the burst across the token expiry.")
    var burst = 200

    func validate() throws {
        guard (1...10_000).contains(burst) else { throw ValidationError("--burst must be between 1 and 10000, not \(burst)") }
    }

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("auth-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let interrupts = Self.removingOnInterrupt(folder)
        defer {
            for source in interrupts { source.cancel() }
            try? FileManager.default.removeItem(at: folder)
        }
        let report = StoryReport()
        try await AuthTestServer.withRunning { server in
            print("AuthTestServer listening on \(server.baseURL.absoluteString)")
            print("credential store: \(folder.appendingPathComponent("credentials.sqlite").path)\n")
            try await HTTPClientTransport.withTransport { transport in
                let container = AuthContainer()
                container.useHTTPClient(transport)
                try await container.useSQLiteStore(at: folder.appendingPathComponent("credentials.sqlite").path)
                let story = Story(server: server, transport: transport, container: container, report: report, folder: folder, burst: burst)
                try await story.run()
            }
            report.renewals = server.counters.renewals
            report.requests = server.counters.requestsByPath.values.reduce(0, +)
        }
        guard report.finish() else { throw ExitCode.failure }
    }

    /// On Ctrl-C (SIGINT) or SIGTERM: removes the story's temporary folder, says so, and exits
    /// with 130 (143 for SIGTERM), as a shell expects of an interrupted command.
    static func removingOnInterrupt(_ folder: URL) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                try? FileManager.default.removeItem(at: folder)
                FileHandle.standardError.write(Data("\nauth-demo: interrupted; removed the story's temporary store \(folder.path)\n".utf8))
                Foundation.exit(128 + number)
            }
            source.resume()
            return source
        }
    }
}
