import AuthCore

/// Lists every record key of a store: namespaces, then their accounts, then their items.
enum StoreWalker {
    /// Every key, in the store's listing order (ascending by namespace, account, item).
    /// - Parameter namespaces: Only these namespaces, when given.
    static func keys(of store: any CredentialStore, namespaces only: Set<String>? = nil) async throws -> [CredentialKey] {
        var keys: [CredentialKey] = []
        for namespace in try await store.namespaces() where only?.contains(namespace) ?? true {
            for account in try await store.accounts(in: namespace) {
                let owner = AccountKey(namespace: namespace, account: account)
                for item in try await store.items(of: owner) {
                    keys.append(owner.item(item))
                }
            }
        }
        return keys
    }

    /// Whether an error means the whole store cannot be used now, so going on would be pointless.
    static func isFatal(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let store = error as? CredentialStoreError, store.code == .unavailable { return true }
        return false
    }
}
