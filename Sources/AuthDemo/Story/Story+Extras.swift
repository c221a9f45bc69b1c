import AuthCore

extension Story {
    /// The steps of the plug-in modules: MFA, cookie sessions, signing, migration.
    func extraSteps(alice: AccountClient<BearerStrategy>) async throws {
        await migrationStep()
    }
}
