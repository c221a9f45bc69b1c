import AuthCore

extension Story {
    /// The steps of the plug-in modules: cookie sessions, MFA, signing, caching, migration.
    func extraSteps(alice: AccountClient<BearerStrategy>) async throws {}
}
