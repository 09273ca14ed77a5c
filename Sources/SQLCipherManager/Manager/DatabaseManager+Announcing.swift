import SQLCipherCore

// MARK: - "will" events before the work, outside the lock

/// Where a flow run by ``DatabaseManager/announcing(_:failed:_:)`` stands with its `will…` event.
enum Announcement {
    /// The first pass: the flow runs its checks up to its `will…` event, which ends the pass.
    case checking
    /// The second pass: the event was delivered, the flow goes past it.
    case delivered
}

/// Ends the checking pass of ``DatabaseManager/announcing(_:failed:_:)`` at the flow's event.
struct AnnouncementReached: Error {
    let event: DatabaseEvent
}

extension DatabaseManager {
    /// Runs `flow` under the lock so that its `will…` event (``announce(_:)``) reaches the
    /// delegate and the streams before the work starts, with the lock released: the delegate
    /// may show progress, call the manager, or wait for a thread that does.
    ///
    /// The flow runs twice. The first pass stops at its event, having only checked (nothing is
    /// written before an announcement); the lock is released and the event delivered. The
    /// second pass starts again from the checks, since another thread may have closed or
    /// changed the database meanwhile, and goes on to the work. A flow refused by its checks in
    /// the first pass raises no event; once the event is out, a failure without an outcome of
    /// the flow's own raises `failed(error)`, so a `will…` is followed by one outcome. Called
    /// from inside another flow (the migration of an open), the lock cannot be released: the
    /// flow runs once and its events wait for the outer flow, as every event under the lock does.
    func announcing<T>(
        _ call: String = #function, failed: (DatabaseManagerError) -> DatabaseEvent, _ flow: () throws -> T
    ) throws -> T {
        if lock.isHeldByCurrentThread { return try locked(call, flow) }
        let event: DatabaseEvent
        do {
            return try locked(call) { try during(.checking, flow) }
        } catch let reached as AnnouncementReached {
            event = reached.event
        }
        deliver(event)
        return try locked(call) {
            let raised = pendingEvents.count
            do {
                return try during(.delivered, flow)
            } catch {
                let ownOutcome = pendingEvents.dropFirst(raised).contains { $0.0 === self && $0.1.isOutcome }
                let error = DatabaseManagerError(diagnosing: error, path: databasePath ?? "")
                if !ownOutcome { notify(failed(error)) }
                throw error
            }
        }
    }

    /// A flow's `will…` event: ends the checking pass of ``announcing(_:failed:_:)``, passes
    /// once delivered, and outside it (inside another flow) waits with the other events.
    func announce(_ event: DatabaseEvent) throws {
        switch announcement {
        case .checking?: throw AnnouncementReached(event: event)
        case .delivered?: return
        case nil: notify(event)
        }
    }

    private func during<T>(_ stage: Announcement, _ flow: () throws -> T) rethrows -> T {
        announcement = stage
        defer { announcement = nil }
        return try flow()
    }
}

extension DatabaseEvent {
    /// `true` for the events that end a flow begun with a `will…` event.
    var isOutcome: Bool {
        switch self {
        case .didRekey, .didFailToRekey, .didFail, .didMigrate, .didUpgradeFormat, .didFailToUpgradeFormat: true
        default: false
        }
    }
}
