internal import CSQLCipher

// MARK: - ChangeTracker

/// The tables one connection's transactions change, for observation: the update hook
/// (`sqlite3_update_hook`) names the table of each changed row, the statements name the tables
/// they write that the hook does not see (a `DELETE` without `WHERE`, a `WITHOUT ROWID`
/// table) and their schema changes, as the authorizer reported them when they compiled; the
/// commit hook moves what the transaction changed to ``takeCommitted()``, the rollback hook
/// forgets it.
///
/// The commit hook runs before the commit is on disk, so what it collects is handed out only
/// by ``takeCommitted()``, which the owner calls after the statement that committed returned:
/// a query run then sees the commit.
package final class ChangeTracker {
    private let state: UnsafeMutablePointer<csqlcipher_change_state>
    /// What the open transaction has changed so far.
    private var pending = TableAccess()
    /// What committed transactions changed, not yet taken.
    private var committed = TableAccess()
    private var hasCommitted = false

    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: csqlcipher_change_state(context: nil, changed: nil, ended: nil, last: nil))
        state.pointee.context = Unmanaged.passUnretained(self).toOpaque()
        state.pointee.changed = { context, table in
            guard let context, let table else { return }
            Unmanaged<ChangeTracker>.fromOpaque(context).takeUnretainedValue().pending.writes.insert(TableAccess.name(table))
        }
        state.pointee.ended = { context, committed in
            guard let context else { return }
            Unmanaged<ChangeTracker>.fromOpaque(context).takeUnretainedValue().end(committed: committed != 0)
        }
    }

    // Held by its connection, which removes the hooks before it lets the tracker go.
    deinit { state.deallocate() }

    /// Installs the hooks on `handle`, or removes them.
    package func install(on handle: OpaquePointer, _ on: Bool) {
        csqlcipher_install_change_hooks(handle, on ? state : nil)
    }

    /// A statement about to run that writes `access` (what its compile reported).
    func willRun(writing access: TableAccess) { pending.formUnion(access) }

    // Moved rather than copied (`swap`): a commit costs one set allocation, the first insert of
    // its transaction.
    private func end(committed didCommit: Bool) {
        if didCommit {
            if committed.isEmpty { swap(&committed, &pending) } else { committed.formUnion(pending) }
            hasCommitted = true
        }
        if !pending.isEmpty { pending = TableAccess() }
    }

    /// What the transactions committed since the last call changed, or `nil` when none committed.
    package func takeCommitted() -> TableAccess? {
        guard hasCommitted else { return nil }
        hasCommitted = false
        var taken = TableAccess()
        swap(&taken, &committed)
        return taken
    }
}

// Used only by the thread that uses its connection.
@available(*, unavailable)
extension ChangeTracker: Sendable {}
