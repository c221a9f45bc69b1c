import AuthCore
import AuthPostgresStore
import PostgresNIO
import Testing

/// `postgres://` URLs as `--store` and the worker take them.
@Suite struct PostgresURLTests {
    @Test func userPasswordHostPortAndDatabaseAreRead() throws {
        let configuration = try #require(try PostgresCredentialStore.configuration(url: "postgres://svc%40corp:p%40ss%25w0rd@db.internal:6543/auth?sslmode=disable"))
        #expect(configuration.username == "svc@corp")
        #expect(configuration.password == "p@ss%w0rd")
        #expect(configuration.host == "db.internal")
        #expect(configuration.port == 6543)
        #expect(configuration.database == "auth")
        let defaults = try #require(try PostgresCredentialStore.configuration(url: "postgresql://svc@db"))
        #expect(defaults.port == 5432 && defaults.database == nil)
    }

    @Test func otherSchemesAreNotPostgreSQL() throws {
        #expect(try PostgresCredentialStore.configuration(url: "/var/lib/app/credentials.sqlite") == nil)
        #expect(try PostgresCredentialStore.configuration(url: "https://db.internal") == nil)
    }

    /// A URL that cannot be right is refused, and the refusal never repeats the password.
    @Test func badURLsAreRefusedWithoutTheirPassword() {
        for url in ["postgres://db.internal/auth", "postgres://svc:hunter2@db/auth?sslmode=sometimes", "postgres://svc:hunter2@db/auth?ssl=true", "postgres://:hunter2@db/auth"] {
            #expect(throws: CredentialStoreError.self, "\(url)") { try PostgresCredentialStore.configuration(url: url) }
            do {
                _ = try PostgresCredentialStore.configuration(url: url)
            } catch {
                #expect(!"\(error)".contains("hunter2"))
            }
        }
    }
}
