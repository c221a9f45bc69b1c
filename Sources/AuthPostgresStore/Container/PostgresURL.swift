public import AuthCore
public import Foundation
public import PostgresNIO

extension PostgresCredentialStore {
    /// The connection a `postgres://user[:password]@host[:port]/database` URL names (also
    /// `postgresql://`; the port defaults to 5432, TLS is off); nil when `string` is not such a URL.
    /// - Throws: `CredentialStoreError` `.invalidArgument` for a PostgreSQL URL without a user or
    ///   a host (the message never repeats the URL, which may hold a password).
    public static func configuration(url string: String) throws -> PostgresClient.Configuration? {
        guard let url = URL(string: string), let scheme = url.scheme, ["postgres", "postgresql"].contains(scheme) else { return nil }
        guard let host = url.host, !host.isEmpty, let user = url.user else {
            throw CredentialStoreError(code: .invalidArgument, message: "a PostgreSQL URL names a user and a host (postgres://user@host/database)")
        }
        let database = url.path.isEmpty || url.path == "/" ? nil : String(url.path.dropFirst())
        return PostgresClient.Configuration(host: host, port: url.port ?? 5432, username: user, password: url.password, database: database, tls: .disable)
    }
}
