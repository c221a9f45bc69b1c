import AuthCore
import Foundation
public import PostgresNIO
import NIOSSL

extension PostgresCredentialStore {
    /// The connection a `postgres://user[:password]@host[:port]/database[?sslmode=…]` URL names
    /// (also `postgresql://`; the port defaults to 5432; user and password are percent-decoded);
    /// nil when `string` is not such a URL.
    ///
    /// `sslmode` as libpq spells it: `disable`, `prefer` (the default: TLS when the server offers
    /// it), `require`, `verify-ca` or `verify-full` (TLS required and the server's certificate
    /// verified against the system's trust roots; `require` does not verify, as in libpq).
    /// - Throws: `CredentialStoreError` `.invalidArgument` for a PostgreSQL URL without a user or
    ///   a host, or with a query parameter or `sslmode` it does not know (the message never
    ///   repeats the URL, which may hold a password).
    public static func configuration(url string: String) throws -> PostgresClient.Configuration? {
        guard let components = URLComponents(string: string), let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme) else { return nil }
        guard let host = components.host, !host.isEmpty, let user = components.user, !user.isEmpty else {
            throw CredentialStoreError(code: .invalidArgument, message: "a PostgreSQL URL names a user and a host (postgres://user@host/database)")
        }
        var tls = PostgresClient.Configuration.TLS.prefer(.makeClientConfiguration())
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode" else {
                throw CredentialStoreError(code: .invalidArgument, message: "a PostgreSQL URL has a parameter this store does not know: '\(item.name)' (only sslmode is read)")
            }
            switch item.value {
            case "disable": tls = .disable
            case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
            case "require":
                var configuration = TLSConfiguration.makeClientConfiguration()
                configuration.certificateVerification = .none
                tls = .require(configuration)
            case "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
            default:
                throw CredentialStoreError(code: .invalidArgument, message: "a PostgreSQL URL's sslmode must be disable, allow, prefer, require, verify-ca or verify-full")
            }
        }
        let path = components.path
        let database = path.isEmpty || path == "/" ? nil : String(path.dropFirst())
        return PostgresClient.Configuration(host: host, port: components.port ?? 5432, username: user, password: components.password, database: database, tls: tls)
    }
}
