import Foundation
import Logging

/// The renewal budget of a session: at most ``RenewalPolicy/maxRenewals`` within its window.
extension AccountSession {
    func giveBackReservation() {
        if !renewalTimes.isEmpty { renewalTimes.removeLast() }
    }

    func reserveRenewal() throws {
        let now = clock.now()
        renewalTimes.removeAll { now.timeIntervalSince($0) >= policy.window.seconds }
        guard renewalTimes.count < policy.maxRenewals else {
            events.emit(.excessiveRenewal(account))
            logger.error("excessive renewal", metadata: ["account": "\(account)", "limit": "\(policy.maxRenewals)"])
            throw AuthError(code: .excessiveRenewal, message: "more than \(policy.maxRenewals) renewals within \(policy.window); the server keeps rejecting renewed credentials", account: account)
        }
        renewalTimes.append(now)
    }
}
