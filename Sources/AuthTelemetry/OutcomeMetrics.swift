import AuthCore
import CoreMetrics
import Synchronization

/// The timers of one metric label for one account, one per outcome, made once: a backend's
/// factory call (a lookup under its lock, an allocation) stays off the per-request path.
final class TimerCache: Sendable {
    private let label: String
    private let telemetry: AuthTelemetry
    private let account: AccountKey?
    private let timers = Mutex<[String: Timer]>([:])

    init(label: String, telemetry: AuthTelemetry, account: AccountKey?) {
        self.label = label
        self.telemetry = telemetry
        self.account = account
    }

    /// Records `elapsed` under `outcome`.
    func record(_ elapsed: Duration, outcome: String) {
        let timer = timers.withLock { timers in
            if let timer = timers[outcome] { return timer }
            let timer = Timer(label: label, dimensions: telemetry.dimensions(account, [("outcome", outcome)]), factory: telemetry.metrics)
            timers[outcome] = timer
            return timer
        }
        timer.recordNanoseconds(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }
}
