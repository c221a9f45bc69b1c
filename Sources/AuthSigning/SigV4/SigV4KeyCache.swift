import Crypto
import Synchronization

/// The last derived SigV4 signing key of one signer, by scope day.
///
/// Deriving the key costs four HMACs, more than the rest of a signature; it only changes when
/// the day changes (a signer's credentials, region and service are fixed), so AWS's SDKs cache
/// it the same way. The key never appears in a description or a mirror.
final class SigV4KeyCache: Sendable, CustomReflectable {
    private let last = Mutex<(day: String, key: SymmetricKey)?>(nil)

    /// The key for `day`, derived by `derive` when the cached one is for another day.
    func key(day: String, derive: (String) -> SymmetricKey) -> SymmetricKey {
        if let cached = last.withLock({ $0 }), cached.day == day { return cached.key }
        let key = derive(day)
        last.withLock { $0 = (day, key) }
        return key
    }

    var customMirror: Mirror { Mirror(self, children: []) }
}
