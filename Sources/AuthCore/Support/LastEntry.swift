import Synchronization

/// One value kept for the next caller to reuse when it matches: the answer a client computes again
/// and again for the same endpoint (a request's head, the URL a transport sends to, an
/// allowed-host answer), kept for the last key asked about.
///
/// Entries are immutable objects, matched outside the lock; a value that is replaced is freed
/// after the lock, not under it. A miss allocates the new entry (a client alternating between
/// two endpoints pays one allocation a request per cache). Compare string keys with
/// ``sameBytes(_:_:)``.
///
/// The lock holds `AnyObject?`, a type the compiler knows, so that a cache in another module (the
/// transport's), which runs this generic code unspecialized, asks the runtime for no metadata:
/// `Mutex<Entry?>` cost two such lookups a request there, about 600 instructions.
package final class LastEntry<Entry: AnyObject & Sendable>: Sendable {
    private let last = Mutex<AnyObject?>(nil)

    package init() {}

    /// The kept value, when `matches` it.
    package func value(where matches: (Entry) -> Bool) -> Entry? {
        guard let entry = kept else { return nil }
        return matches(entry) ? entry : nil
    }

    /// The kept value, if any.
    package var kept: Entry? {
        last.withLock { $0 }.map { unsafeDowncast($0, to: Entry.self) }
    }

    /// Keeps `entry` in place of the one kept before.
    package func keep(_ entry: Entry) {
        let replaced = last.withLock { last in
            defer { last = entry }
            return last
        }
        _ = replaced
    }
}
