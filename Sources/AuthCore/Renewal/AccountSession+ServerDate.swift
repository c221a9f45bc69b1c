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
    /// between `date - received` and `date + 1 s - sent`. An estimate within that interval stays
    /// as it is: a slow response (a stalled machine, a long body) widens the interval and forces
    /// no change. An estimate outside it becomes the interval's upper end, the latest the
    /// server's clock can be (erring toward renewing early, never toward using an expired
    /// credential), when the whole interval lies at least ``RenewalPolicy/skewThreshold`` from
    /// zero, or when a server taken to be ahead is still that far ahead at most; else zero.
    public nonisolated func observeServerDate(_ date: Date, sentAt sent: Date, receivedAt received: Date) {
        let lowest = date.timeIntervalSince(received)
        let highest = date.timeIntervalSince(sent) + 1
        let threshold = policy.skewThreshold.seconds
        shared.withLock { state in
            guard state.skew < lowest || state.skew > highest else { return }
            let beyond = lowest >= threshold || highest <= -threshold
            let stillAhead = state.skew > highest && highest >= threshold
            state.skew = beyond || stillAhead ? highest : 0
        }
    }

    /// Whether the response to a request sent at `sent` (by the session's clock) is the one whose
    /// `Date` field the authentication middleware reads this second: the first sent in each
    /// second of the session's clock, so that a busy client reads the field about once a second
    /// rather than on every response.
    ///
    /// The estimate needs no more: a field gives the server's time to the second, and each
    /// response's bounds the skew on its own (see ``observeServerDate(_:sentAt:receivedAt:)``).
    /// A busy client's responses in one second mostly carry one value, which
    /// ``observeServerDateField(_:sentAt:)`` parsed once already. A change of the server's clock
    /// is seen within a second.
    nonisolated func takesServerDate(sentAt sent: Date) -> Bool {
        // A time that `Int64` cannot count in seconds (not finite) is read on every response.
        guard let second = Int64(exactly: sent.timeIntervalSinceReferenceDate.rounded(.down)) else { return true }
        let last = lastDateSecond.load(ordering: .relaxed)
        guard last != second else { return false }
        return lastDateSecond.compareExchange(expected: last, desired: second, ordering: .relaxed).exchanged
    }

    /// Records the server's `Date` field of the response to a request sent at `sent` (by the
    /// session's clock) to estimate clock skew, as ``observeServerDate(_:sentAt:receivedAt:)``
    /// does. The field is parsed only when it differs from the last one seen: a server's clock
    /// moves once a second, and a busy client reads the same value many times, so the estimate
    /// is checked against one response of each server second.
    public nonisolated func observeServerDateField(_ value: String, sentAt sent: Date) {
        let isNew = lastDateField.withLock { last in
            // Byte for byte: the same second's value arrives in new storage with each response,
            // two equal strings that `!=` compares in about 120 instructions, this in about 40.
            guard !sameBytes(last, value) else { return false }
            last = value
            return true
        }
        guard isNew, let date = HTTPDate.parse(value) else { return }
        observeServerDate(date, sentAt: sent, receivedAt: clock.now())
    }
}
