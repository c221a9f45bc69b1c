public import Foundation
import Synchronization

extension AccountSession {
    /// Records the server's `Date` header to estimate clock skew.
    public nonisolated func observeServerDate(_ date: Date, receivedAt local: Date) {
        let estimate = date.timeIntervalSince(local)
        let skew = abs(estimate) >= policy.skewThreshold.seconds ? estimate : 0
        shared.withLock { $0.skew = skew }
    }

    /// Records the server's `Date` field of a response to estimate clock skew. The field is
    /// parsed only when it differs from the last one seen: a server's clock moves once a second,
    /// and a busy client reads the same value many times. The estimate therefore comes from the
    /// first response of each server second, which the field's one-second resolution allows.
    public nonisolated func observeServerDateField(_ value: String) {
        let isNew = lastDateField.withLock { last in
            guard last != value else { return false }
            last = value
            return true
        }
        guard isNew, let date = HTTPDate.parse(value) else { return }
        observeServerDate(date, receivedAt: clock.now())
    }
}
