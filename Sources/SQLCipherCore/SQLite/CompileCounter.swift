internal import CSQLCipher

// MARK: - CompileCounter

/// How many statements one connection has compiled (`sqlite3_prepare_v2`, and the re-prepare
/// SQLite makes silently inside `sqlite3_step` after a schema change), counted by an
/// authorizer (`sqlite3_set_authorizer`) that allows everything.
///
/// While the count is unchanged, no statement of the connection can have been re-prepared,
/// so a statement's column names read before are still its names: a ``Row`` per lookup
/// needs no `sqlite3_column_name` and no comparison then. SQLite before 3.20 has no
/// `SQLITE_STMTSTATUS_REPREPARE` to ask instead.
///
/// The same authorizer reports, while ``reporting`` asks for it, which tables the statements
/// being compiled read and write (``TableAccess``): what an observation's query depends on,
/// and what a write on the writer changes beyond what the update hook sees.
final class CompileCounter {
    /// The authorizer's state (`csqlcipher_authorizer_state`), written by SQLite's callback.
    let state: UnsafeMutablePointer<csqlcipher_authorizer_state>
    /// The count, the first field of ``state``.
    let pointer: UnsafeMutablePointer<UInt64>
    /// What the statements compiled while ``reporting`` was set read and wrote.
    var access = TableAccess()

    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: csqlcipher_authorizer_state(compiles: 0, report_mask: 0, context: nil, report: nil))
        pointer = UnsafeMutableRawPointer(state).assumingMemoryBound(to: UInt64.self)
        state.pointee.context = Unmanaged.passUnretained(self).toOpaque()
        state.pointee.report = { context, kind, table in
            guard let context else { return }
            Unmanaged<CompileCounter>.fromOpaque(context).takeUnretainedValue().record(kind, table)
        }
    }

    // Held by the connection (whose handle is closed before the counter is released) and by
    // each of its statements, so the callback never writes freed memory.
    deinit { state.deallocate() }

    /// The statements compiled so far.
    package var value: UInt64 { pointer.pointee }

    /// What the authorizer reports: reads, writes (with schema changes), both or nothing.
    var reporting: TableAccess.Kinds {
        get { TableAccess.Kinds(rawValue: state.pointee.report_mask) }
        set { state.pointee.report_mask = newValue.rawValue }
    }

    private func record(_ kind: Int32, _ table: UnsafePointer<CChar>?) {
        switch kind {
        case Int32(CSQLCIPHER_REPORT_READ): if let table { access.reads.insert(TableAccess.name(table)) }
        case Int32(CSQLCIPHER_REPORT_WRITE): if let table { access.writes.insert(TableAccess.name(table)) }
        default: access.changesSchema = true
        }
    }
}

// Written and read only by the thread that uses its connection.
@available(*, unavailable)
extension CompileCounter: Sendable {}
