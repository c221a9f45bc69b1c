public import Foundation
public import Logging
import Synchronization

/// The credential state of one account in this process: the current credential, the one
/// renewal in flight, the renewal budget and a failure that needs a new sign-in.
///
/// Every client of the account shares one session (``RenewalCoordinator`` hands them out), so
/// many concurrent requests that find the credential expired or rejected wait for one renewal.
/// With a store that has ``RefreshLocking``, renewal also excludes other processes and first
/// re-reads the store, adopting a credential another process already renewed.
public actor AccountSession<Strategy: AuthStrategy> {
    /// The account.
    public nonisolated let account: AccountKey
    /// The policy for this account's credential.
    public nonisolated let strategy: Strategy
    /// The vault the credential is read from and persisted to.
    public nonisolated let vault: CredentialVault
    /// The renewal limits.
    public nonisolated let policy: RenewalPolicy
    /// The local clock.
    public nonisolated let clock: any AuthClock
    /// Where events go.
    public nonisolated let events: AuthEvents
    nonisolated let logger: Logger

    private var current: Strategy.Value? { didSet { publish() } }
    private var loaded = false { didSet { publish() } }
    private var inFlight: RenewalFlight<Strategy.Value>? { didSet { publish() } }
    private var renewalTimes: [Date] = []
    private var failure: AuthError? { didSet { publish() } }

    /// What a request may read without entering the actor: the credential while it is loaded,
    /// no renewal is in flight and no failure is recorded (nil otherwise), the renewal in flight
    /// (while no failure is recorded), and the clock skew. Most requests find a valid credential
    /// here, and requests arriving during a renewal find the renewal to wait for, so neither
    /// costs an actor hop; everything else takes the isolated path.
    private nonisolated let shared = Mutex(SharedState())

    private struct SharedState: Sendable {
        var ready: Published?
        var renewal: RenewalFlight<Strategy.Value>?
        var skew: TimeInterval = 0
    }

    /// A credential as requests receive it: one object per published credential, so that a
    /// request holds a reference rather than a copy of a value whose size only the strategy
    /// knows (a generic local in an async function costs an allocation per request).
    final class Published: Sendable {
        let credential: Strategy.Value
        init(_ credential: Strategy.Value) { self.credential = credential }
    }

    private func publish() {
        let ready = loaded && failure == nil && inFlight == nil ? current.map(Published.init) : nil
        let renewal = failure == nil ? inFlight : nil
        shared.withLock { state in
            state.ready = ready
            state.renewal = renewal
        }
    }

    /// Creates a session; prefer ``RenewalCoordinator/session(for:strategy:)``.
    public init(account: AccountKey, strategy: Strategy, vault: CredentialVault, policy: RenewalPolicy = .init(), clock: any AuthClock = SystemClock(), events: AuthEvents = AuthEvents(), logger: Logger = Logger(label: "AuthKit")) {
        self.account = account
        self.strategy = strategy
        self.vault = vault
        self.policy = policy
        self.clock = clock
        self.events = events
        self.logger = logger
    }

    /// The current time as the server sees it: the local clock plus the estimated skew.
    public nonisolated var serverNow: Date { clock.now().addingTimeInterval(clockSkew) }

    /// The estimated server clock minus the local clock, in seconds.
    public nonisolated var clockSkew: TimeInterval { shared.withLock { $0.skew } }

    /// Stores a new credential after a sign-in; clears a previous failure.
    public func signIn(_ credential: Strategy.Value) async throws {
        try await vault.save(credential, for: account)
        current = credential
        loaded = true
        failure = nil
        renewalTimes.removeAll()
        events.emit(.signedIn(account))
    }

    /// Removes the stored credential and forgets it.
    public func signOut() async throws {
        try await vault.delete(for: account)
        current = nil
        loaded = true
        events.emit(.signedOut(account))
    }

    /// The credential to put on a request now, renewed first when it is due.
    /// - Throws: `AuthError` `.reauthenticationRequired` (fast, after a failure for good),
    ///   `.notSignedIn`, `.excessiveRenewal`, `.storage`, or a renewal error.
    public nonisolated func credentialForRequest() async throws -> Strategy.Value {
        if let ready = readyCredential() { return ready.credential }
        return try await pendingCredential()
    }

    /// The credential for a request that ``readyCredential()`` found nothing for: the renewal
    /// in flight, read without entering the actor, or what the actor plans.
    nonisolated func pendingCredential() async throws -> Strategy.Value {
        if let renewal = shared.withLock({ $0.renewal }) { return try await renewal.value }
        return try await resolve(planCredential())
    }

    /// ``pendingCredential()`` as a ``Published`` reference, for the authentication middleware:
    /// it runs unspecialized, where a generic value it receives across an `await` costs a task
    /// allocation per request (measurable in the renewal storm).
    nonisolated func pendingPublished() async throws -> Published {
        Published(try await pendingCredential())
    }

    /// The loaded credential when it can be used as it is (not due for renewal, no renewal in
    /// flight, no failure recorded), read without entering the actor; nil otherwise.
    ///
    /// Specialized for ``BearerStrategy``: requests reach this through `any Middleware`, so it
    /// runs as unspecialized generic code that would look up type metadata on every call.
    @_specialize(where Strategy == BearerStrategy)
    nonisolated func readyCredential() -> Published? {
        shared.withLock { state in
            guard let ready = state.ready,
                  !strategy.needsRenewal(ready.credential, now: clock.now().addingTimeInterval(state.skew), leeway: policy.leeway) else { return nil }
            return ready
        }
    }

    /// A credential newer than `stale`: the current one if it already differs, else a renewed one.
    /// Concurrent callers share one renewal.
    public nonisolated func renew(from stale: Strategy.Value?) async throws -> Strategy.Value {
        try await resolve(planRenewal(from: stale))
    }

    /// A credential to use now, the renewal to wait for, or a renewal this caller starts.
    ///
    /// The actor only decides; callers start and wait for a renewal outside it
    /// (``resolve(_:)``), so when a renewal finishes, its many waiters resume in parallel
    /// instead of one by one on the actor.
    private enum Plan: Sendable {
        case use(Strategy.Value)
        case wait(RenewalFlight<Strategy.Value>)
        /// The flight is registered as in flight; the caller starts it.
        case lead(RenewalFlight<Strategy.Value>, from: Strategy.Value?, now: Date)
    }

    private nonisolated func resolve(_ plan: Plan) async throws -> Strategy.Value {
        switch plan {
        case .use(let credential):
            return credential
        case .wait(let flight):
            return try await flight.value
        case .lead(let flight, let stale, let now):
            start(flight, from: stale, now: now)
            return try await flight.value
        }
    }

    /// Runs a renewal in a task of its own, so that no waiter's cancellation cancels it.
    ///
    /// The task starts at once on the caller's thread (`Task.immediate`) and runs until the
    /// refresher first suspends: the renewal's request goes out before the work queued behind
    /// this caller (under a burst, the other requests of the burst) rather than after it.
    private nonisolated func start(_ flight: RenewalFlight<Strategy.Value>, from stale: Strategy.Value?, now: Date) {
        let renewal: @Sendable () async -> Void = { await self.fly(flight, from: stale, now: now) }
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            Task.immediate(operation: renewal)
        } else {
            Task(operation: renewal)
        }
    }

    /// Renews, records the outcome on the actor, then lets the waiters go: a request that
    /// arrives in between already finds the renewed credential (or the failure) published.
    private nonisolated func fly(_ flight: RenewalFlight<Strategy.Value>, from stale: Strategy.Value?, now: Date) async {
        do {
            let renewed = try await performRenewal(from: stale, now: now)
            await finishRenewal(renewed)
            flight.finish(.success(renewed))
        } catch {
            flight.finish(.failure(await failRenewal(error)))
        }
    }

    private func planCredential() async throws -> Plan {
        if let failure { throw failure }
        if let inFlight { return .wait(inFlight) }
        if !loaded { try await load() }
        guard let credential = current else { return try planRenewal(from: nil) }
        if strategy.needsRenewal(credential, now: serverNow, leeway: policy.leeway) {
            return try planRenewal(from: credential)
        }
        return .use(credential)
    }

    private func planRenewal(from stale: Strategy.Value?) throws -> Plan {
        if let failure { throw failure }
        if let inFlight { return .wait(inFlight) }
        if let current, current != stale, !strategy.needsRenewal(current, now: serverNow, leeway: policy.leeway) {
            return .use(current)
        }
        try reserveRenewal()
        let flight = RenewalFlight<Strategy.Value>()
        inFlight = flight
        return .lead(flight, from: stale, now: serverNow)
    }

    private func finishRenewal(_ renewed: Strategy.Value) {
        current = renewed
        loaded = true
        inFlight = nil
    }

    /// Records a failed renewal and returns the error every waiter gets.
    private func failRenewal(_ error: any Error) -> any Error {
        inFlight = nil
        guard let authError = error as? AuthError else {
            events.emit(.renewalFailed(account, reason: String(describing: error)))
            logger.warning("renewal failed", metadata: ["account": "\(account)", "error": "\(error)"])
            return error
        }
        let final = AuthError(code: authError.code, message: authError.message, account: account, status: authError.status, underlying: authError.underlying)
        switch authError.code {
        case .reauthenticationRequired:
            failure = final
            events.emit(.reauthenticationRequired(account, reason: authError.message))
            logger.warning("re-authentication required", metadata: ["account": "\(account)"])
        case .notSignedIn:
            // Nothing was renewed: give the reservation back, so that asking while signed out
            // never turns into `excessiveRenewal`.
            if !renewalTimes.isEmpty { renewalTimes.removeLast() }
        default:
            events.emit(.renewalFailed(account, reason: authError.message))
            logger.warning("renewal failed", metadata: ["account": "\(account)", "error": "\(authError)"])
        }
        return final
    }

    /// Records the server's `Date` header to estimate clock skew.
    public nonisolated func observeServerDate(_ date: Date, receivedAt local: Date) {
        let estimate = date.timeIntervalSince(local)
        let skew = abs(estimate) >= policy.skewThreshold.seconds ? estimate : 0
        shared.withLock { $0.skew = skew }
    }

    private func load() async throws {
        do {
            current = try await vault.load(Strategy.Value.self, for: account)
            loaded = true
        } catch let error as CredentialStoreError {
            if error.code == .unavailable { events.emit(.storeUnavailable(account, reason: error.message)) }
            throw AuthError(code: .storage, message: "the credential could not be read: \(error.message)", account: account, underlying: error)
        }
    }

    private func reserveRenewal() throws {
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
