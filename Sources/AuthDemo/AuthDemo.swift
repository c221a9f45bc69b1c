import ArgumentParser

/// `auth-demo`: AuthKit's sample composition. With no arguments it runs the whole story against
/// an in-process AuthTestServer; subcommands do one thing each against a real server.
@main
struct AuthDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth-demo",
        abstract: "AuthKit's sample: the whole story by default, or one action against a server.",
        subcommands: [StoryCommand.self, ServeCommand.self, LoginCommand.self, RequestCommand.self, AccountsCommand.self, OTPCommand.self],
        defaultSubcommand: StoryCommand.self
    )
}
