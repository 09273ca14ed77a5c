// MARK: - CompileCounter

/// How many statements one connection has compiled (`sqlite3_prepare_v2`, and the re-prepare
/// SQLite makes silently inside `sqlite3_step` after a schema change), counted by an
/// authorizer (`sqlite3_set_authorizer`) that allows everything.
///
/// While the count is unchanged, no statement of the connection can have been re-prepared,
/// so a statement's column names read before are still its names: a ``Row`` per lookup
/// needs no `sqlite3_column_name` and no comparison then. SQLite before 3.20 has no
/// `SQLITE_STMTSTATUS_REPREPARE` to ask instead.
final class CompileCounter {
    /// The count, written by SQLite's authorizer callback (`csqlcipher_compile_counted`).
    let pointer: UnsafeMutablePointer<UInt64>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: 0)
    }

    // Held by the connection (whose handle is closed before the counter is released) and by
    // each of its statements, so the callback never writes freed memory.
    deinit { pointer.deallocate() }

    /// The statements compiled so far.
    var value: UInt64 { pointer.pointee }
}

// Written and read only by the thread that uses its connection.
@available(*, unavailable)
extension CompileCounter: Sendable {}
