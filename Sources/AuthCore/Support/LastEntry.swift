import Synchronization

/// One value kept for the next caller to reuse when it matches: the answer a client computes again
/// and again for the same endpoint (a request's head, the URL a transport sends to, an
/// allowed-host answer), kept for the last key asked about.
///
/// A value that is replaced is freed after the lock, not under it. Compare string keys with
/// ``sameBytes(_:_:)``.
package final class LastEntry<Entry: Sendable>: Sendable {
    private let last = Mutex<Entry?>(nil)

    package init() {}

    /// The kept value, when `matches` it.
    package func value(where matches: (Entry) -> Bool) -> Entry? {
        last.withLock { entry in
            guard let entry, matches(entry) else { return nil }
            return entry
        }
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
