/// The user a credential belongs to: a namespace (the service or provider) and an account.
public struct AccountKey: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The service or provider, such as `github` or `api.example.com`.
    public var namespace: String
    /// The user within the namespace.
    public var account: String
    /// Creates a key.
    public init(namespace: String, account: String) {
        self.namespace = namespace
        self.account = account
    }
    /// `namespace/account`.
    public var description: String { "\(namespace)/\(account)" }

    /// The key of one item of this account.
    public func item(_ item: String) -> CredentialKey {
        CredentialKey(namespace: namespace, account: account, item: item)
    }
}

/// Where one record lives in a ``CredentialStore``: namespace, account and item.
public struct CredentialKey: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The service or provider.
    public var namespace: String
    /// The user within the namespace.
    public var account: String
    /// The record of that user, such as `credential` or `device-id`.
    public var item: String
    /// Creates a key.
    public init(namespace: String, account: String, item: String) {
        self.namespace = namespace
        self.account = account
        self.item = item
    }
    /// The account part of the key.
    public var accountKey: AccountKey { AccountKey(namespace: namespace, account: account) }
    /// `namespace/account/item`.
    public var description: String { "\(namespace)/\(account)/\(item)" }
}
