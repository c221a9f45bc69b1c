public import Foundation
import Synchronization

extension AccountSession {
    /// Records the server's `Date` header, seen at `local`, to estimate clock skew.
    ///
    /// Without the time the request was sent, the server's clock is taken to have read the header
    /// at `local`. Prefer ``observeServerDate(_:sentAt:receivedAt:)``.
    public nonisolated func observeServerDate(_ date: Date, receivedAt local: Date) {
        observeServerDate(date, sentAt: local, receivedAt: local)
    }

    /// Records the server's `Date` header of the response to a request sent at `sent` and received
    /// (whole) at `received`, by the local clock, to estimate clock skew.
    ///
    /// The header says that at some instant between the two the server's clock read between
    /// `date` and one second later (its resolution), so the skew (server minus local) lies
    /// between `date - received` and `date + 1 s - sent`. It is taken only when that whole
    /// interval lies at least ``RenewalPolicy/skewThreshold`` from zero, and then as the bound
    /// nearest zero; otherwise the clocks are taken to agree. A response that came slowly (a
    /// stalled machine, a long body) widens the interval instead of making the server's clock
    /// look behind, which would keep expired credentials in use.
    public nonisolated func observeServerDate(_ date: Date, sentAt sent: Date, receivedAt received: Date) {
        let lowest = date.timeIntervalSince(received)
        let highest = date.timeIntervalSince(sent) + 1
        let threshold = policy.skewThreshold.seconds
        let skew = lowest >= threshold ? lowest : highest <= -threshold ? highest : 0
        shared.withLock { $0.skew = skew }
    }

    /// Records the server's `Date` field of the response to a request sent at `sent` (by the
    /// session's clock) to estimate clock skew, as ``observeServerDate(_:sentAt:receivedAt:)``
    /// does. The field is parsed only when it differs from the last one seen: a server's clock
    /// moves once a second, and a busy client reads the same value many times. The estimate
    /// therefore comes from the first response of each server second, which the field's
    /// one-second resolution allows.
    public nonisolated func observeServerDateField(_ value: String, sentAt sent: Date) {
        let isNew = lastDateField.withLock { last in
            guard last != value else { return false }
            last = value
            return true
        }
        guard isNew, let date = HTTPDate.parse(value) else { return }
        observeServerDate(date, sentAt: sent, receivedAt: clock.now())
    }
}
