public import AuthCore
public import PostgresNIO

extension AuthContainer {
    /// Keeps the credentials of every client this container builds in PostgreSQL, shared by every
    /// machine that uses the same database: opens a pool, migrates the schema, and sets
    /// ``/AuthCore/CredentialStoreKey``.
    ///
    /// ```swift
    /// try await container.usePostgresStore(.init(host: "db.internal", username: "authkit", password: password, database: "auth", tls: .disable))
    /// ```
    /// - Returns: The store (``PostgresCredentialStore/close()`` it at shutdown).
    @discardableResult
    public func usePostgresStore(_ configuration: PostgresClient.Configuration) async throws -> PostgresCredentialStore {
        let store = try await PostgresCredentialStore.open(configuration: configuration)
        override(CredentialStoreKey.self, with: store)
        return store
    }
}
