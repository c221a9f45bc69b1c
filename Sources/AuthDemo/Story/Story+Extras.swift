import AuthCore

extension Story {
    /// The steps of the plug-in modules: MFA, cookie sessions, signing, caching, migration.
    func extraSteps(alice: AccountClient<BearerStrategy>) async throws {
        await totpSignInStep()
        await cookieSessionStep()
        await signedRequestsStep()
        await cachedResponsesStep()
        await migrationStep()
    }
}
