internal import CSQLCipher
import Foundation

// MARK: - Connection

/// One SQLite/SQLCipher connection handle. Not thread-safe: its owner serialises access.
///
/// Every C return code goes through ``check(_:sql:)``, the one funnel that turns a non-OK
/// code into a ``SQLiteError``.
package final class Connection {
    /// How to open the file.
    package enum Mode {
        /// Open an existing file for reading and writing; never create one.
        case readWrite
        /// Open read-write, creating the file when missing.
        case readWriteCreate
        /// Open an existing file read-only.
        case readOnly
        /// Open an existing file read-only as `immutable` (a `file:` URI with `immutable=1`):
        /// no locks, and no `-journal`, `-wal` or `-shm` is ever created or read. For probes
        /// that must leave the disk exactly as it was.
        case readOnlyImmutable

        var flags: Int32 {
            // One thread at a time uses a connection, under the manager's lock or a reader's
            // lease: SQLite's own per-connection mutex would only add cost.
            let base = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_PRIVATECACHE
            switch self {
            case .readWrite: return base | SQLITE_OPEN_READWRITE
            case .readWriteCreate: return base | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            case .readOnly: return base | SQLITE_OPEN_READONLY
            case .readOnlyImmutable: return base | SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            }
        }

        /// The name to give `sqlite3_open_v2` for `path`.
        func filename(_ path: String) -> String {
            guard self == .readOnlyImmutable else { return path }
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            return "file:" + (absolute.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? absolute)
                + "?immutable=1"
        }
    }

    let handle: OpaquePointer
    package let path: String
    private var statementCache: [String: Statement] = [:]
    /// The statement of the last cache hit or miss: a loop that runs one SQL string again and
    /// again finds it with one string comparison instead of hashing the SQL every time.
    private var lastStatement: Statement?
    /// The statements ``RowCursor``s are stepping (usually none or one), out of the cache until
    /// their cursor ends, so that ``close()`` can still finalize them.
    private var leasedStatements: [Statement] = []
    private var progressHandler: ProgressHandler?
    package private(set) var isClosed = false
    /// The device and inode of the file this connection opened (`stat` right after the open),
    /// `nil` for an in-memory database. When the path later names another file, the database
    /// was replaced under this connection.
    package private(set) var identity: FileIdentity?
    /// The statements this connection has compiled, re-prepares included (an authorizer that
    /// only counts): how a statement knows its column names still hold.
    let compiles = CompileCounter()
    /// The blocks of earlier `fetchAll`s, reused (RowBlockPool.swift).
    package let rowBlocks = RowBlockPool()
    /// The tables this connection's commits change (``trackChanges()``), `nil` until asked for.
    package private(set) var changeTracker: ChangeTracker?
    /// While ``recordingReads(_:)`` runs: the tables read by the cached statements it reused.
    var observedReads: Set<String>?

    /// Opens the file (`sqlite3_open_v2`) with extended result codes on.
    package init(path: String, mode: Mode) throws {
        SQLCipherLog.prepare()
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(mode.filename(path), &db, mode.flags, nil)
        guard let db else {
            throw SQLiteError(extendedCode: ResultCode(rawValue: rc), message: "out of memory")
        }
        guard rc == SQLITE_OK else {
            let error = SQLiteError(
                extendedCode: ResultCode(rawValue: sqlite3_extended_errcode(db)),
                message: String(cString: sqlite3_errmsg(db)))
            sqlite3_close_v2(db)
            throw error
        }
        handle = db
        self.path = path
        Interruption.register(db)
        sqlite3_extended_result_codes(db, 1)
        identity = FileSystem.identity(of: path)
        try check(csqlcipher_install_authorizer(db, compiles.state))
    }

    deinit { close() }

    // MARK: - Funnel

    /// Turns a non-OK, non-ROW, non-DONE return code into a ``SQLiteError``.
    func check(_ code: Int32, sql: String? = nil) throws {
        guard code != SQLITE_OK, code != SQLITE_ROW, code != SQLITE_DONE else { return }
        throw lastError(code: code, sql: sql)
    }

    /// The connection's current error, for a failing return code. An interrupt is noted
    /// here, where every failure passes: a compile reading the schema stops too, not only a step.
    func lastError(code: Int32, sql: String?) -> SQLiteError {
        if code & 0xFF == SQLITE_INTERRUPT { Interruption.noteFailedStep() }
        let extended = sqlite3_extended_errcode(handle)
        let useExtended = (extended & 0xFF) == (code & 0xFF)
        return SQLiteError(
            extendedCode: ResultCode(rawValue: useExtended ? extended : code),
            message: String(cString: sqlite3_errmsg(handle)),
            sql: sql)
    }

    /// A SQL function such as `sqlcipher_export` reports its failure as `SQLITE_ERROR` with the
    /// standard text of the real code (`sqlite3_errstr`); this gives the real primary code back,
    /// so that a full disk is still reported as `SQLITE_FULL`.
    package static func restoringCode(of error: SQLiteError) -> SQLiteError {
        guard error.code == .error, let message = error.message else { return error }
        let codes = [
            SQLITE_FULL, SQLITE_IOERR, SQLITE_READONLY, SQLITE_CORRUPT, SQLITE_NOTADB,
            SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_BUSY, SQLITE_LOCKED, SQLITE_NOMEM,
        ]
        for code in codes where String(cString: sqlite3_errstr(code)) == message {
            return SQLiteError(extendedCode: ResultCode(rawValue: code), message: message, sql: error.sql)
        }
        return error
    }

    // MARK: - Lifecycle

    /// Finalizes every cached statement and closes the handle (`sqlite3_close_v2`).
    /// A statement a ``RowCursor`` still holds is finalized here too (its rows and the cursor
    /// then throw `misuse`), so that no statement outlives the handle.
    package func close() {
        guard !isClosed else { return }
        for statement in leasedStatements { statement.finalize() }
        for statement in statementCache.values { statement.finalize() }
        leasedStatements = []
        clearStatementCache()
        rowBlocks.drain()
        changeTracker?.install(on: handle, false)
        Interruption.unregister(handle) { sqlite3_close_v2(handle) }
        isClosed = true
    }

    /// Sets the busy timeout (`sqlite3_busy_timeout`).
    package func setBusyTimeout(milliseconds: Int32) throws {
        try check(sqlite3_busy_timeout(handle, milliseconds))
    }

    /// Keys the connection with raw bytes (`sqlite3_key`). The bytes are not copied or kept.
    package func key(_ bytes: UnsafeRawBufferPointer) throws {
        try check(sqlite3_key(handle, bytes.baseAddress, Int32(bytes.count)), sql: nil)
    }

    /// Re-encrypts the main database with raw key bytes (`sqlite3_rekey`), the bytes not copied
    /// or kept. SQLCipher 3.4.1 returns `SQLITE_OK` even when its page loop or its commit
    /// failed, and then leaves the new key as this connection's write key: the caller must
    /// check the outcome with another connection and, unless the new key opens the file,
    /// close this one without writing again.
    package func rekey(_ bytes: UnsafeRawBufferPointer) throws {
        try check(sqlite3_rekey(handle, bytes.baseAddress, Int32(bytes.count)), sql: nil)
    }

    // MARK: - Statements

    /// Prepares one statement (`sqlite3_prepare_v2`); the caller owns it.
    ///
    /// SQL that holds more than one statement is refused rather than silently cut after the
    /// first: scripts go through ``executeScript(_:)``.
    package func prepare(_ sql: String) throws -> Statement {
        var stmt: OpaquePointer?
        var trailingStatement = false
        var access: TableAccess?
        let rc = sql.withCString { start in
            var tail: UnsafePointer<CChar>?
            let (rc, reported) = compileReporting { sqlite3_prepare_v2(handle, start, -1, &stmt, &tail) }
            access = reported
            if rc == SQLITE_OK, let tail, tail.pointee != 0 { trailingStatement = holdsStatement(tail) }
            return rc
        }
        try check(rc, sql: sql)
        guard let stmt else {
            throw SQLiteError(extendedCode: .misuse, message: "empty statement", sql: sql)
        }
        guard !trailingStatement else {
            sqlite3_finalize(stmt)
            throw SQLiteError(
                extendedCode: .misuse,
                message: "more than one statement given where one is expected; run several with executeScript or forEachStatement",
                sql: sql)
        }
        return makeStatement(stmt, sql: sql, access: access)
    }

    /// `true` when the text holds a statement (or something that fails to prepare), `false`
    /// when it is only whitespace, semicolons and comments.
    private func holdsStatement(_ text: UnsafePointer<CChar>) -> Bool {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, text, -1, &stmt, nil)
        sqlite3_finalize(stmt)
        return rc != SQLITE_OK || stmt != nil
    }

    /// A prepared statement from the cache, reset and with its bindings cleared, or kept for a
    /// caller that rebinds every parameter (`clearingBindings: false`, no
    /// `sqlite3_clear_bindings`).
    package func cachedStatement(_ sql: String, clearingBindings: Bool = true) throws -> Statement {
        if observedReads != nil { return try observedStatement(sql) }
        if let statement = lastStatement, statement.sql == sql {
            clearingBindings ? statement.reset() : statement.resetKeepingBindings()
            return statement
        }
        if let statement = statementCache[sql] {
            clearingBindings ? statement.reset() : statement.resetKeepingBindings()
            lastStatement = statement
            return statement
        }
        return try compileIntoCache(sql)
    }

    /// A new statement for `sql`, kept in the cache (replacing one there) and as the last used.
    private func compileIntoCache(_ sql: String) throws -> Statement {
        let statement = try prepare(sql)
        statementCache[sql] = statement
        lastStatement = statement
        return statement
    }

    /// The statement for `sql`, reset with its bindings cleared, for a ``RowCursor`` to step
    /// until it calls ``endLease(_:)``: the cached one, taken out of the cache meanwhile, or a
    /// new one when another cursor already steps it.
    package func leaseStatement(_ sql: String) throws -> Statement {
        let statement: Statement
        let removed = statementCache.removeValue(forKey: sql)
        if let removed, lastStatement === removed { lastStatement = nil }
        if let cached = removed, observedReads == nil || cached.readTables != nil {
            observedReads?.formUnion(cached.readTables ?? [])
            cached.reset()
            statement = cached
        } else {
            statement = try prepare(sql)
        }
        statement.isLeased = true
        leasedStatements.append(statement)
        return statement
    }

    /// ``cachedStatement(_:clearingBindings:)`` while ``recordingReads(_:)`` runs: the cached
    /// statement when its compile reported its reads (added to ``observedReads``), else a new
    /// one compiled now, which replaces it in the cache.
    private func observedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql], let reads = statement.readTables {
            observedReads?.formUnion(reads)
            statement.reset()
            lastStatement = statement
            return statement
        }
        return try compileIntoCache(sql)
    }

    /// Runs `body` with the authorizer reporting the tables its statements read: those it
    /// compiles, and those of the cached statements it reuses (compiled again when their reads
    /// were not reported). Returns them with `body`'s result.
    package func recordingReads<T>(_ body: () throws -> T) throws -> (value: T, reads: Set<String>) {
        let previous = compiles.reporting
        compiles.reporting.insert(.reads)
        compiles.access.reads = []
        observedReads = []
        defer {
            compiles.reporting = previous
            observedReads = nil
        }
        let value = try body()
        return (value, compiles.access.reads.union(observedReads ?? []))
    }

    /// Starts seeing the tables this connection's commits change (``ChangeTracker``).
    package func trackChanges() -> ChangeTracker {
        if let changeTracker { return changeTracker }
        let tracker = ChangeTracker()
        tracker.install(on: handle, true)
        compiles.reporting.insert(.writes)
        changeTracker = tracker
        return tracker
    }

    /// Resets a statement ``leaseStatement(_:)`` handed out (its read lock is released) and puts
    /// it back in the cache, unless the cache has prepared another one for its SQL meanwhile.
    package func endLease(_ statement: Statement) {
        guard statement.isLeased else { return }
        statement.isLeased = false
        leasedStatements.removeAll { $0 === statement }
        guard !statement.isFinalized else { return }
        statement.reset()
        if statementCache[statement.sql] == nil { statementCache[statement.sql] = statement }
    }

    /// How many of this connection's statements are stepped and not yet reset
    /// (`sqlite3_next_stmt`, `sqlite3_stmt_busy`): each one holds a read.
    var busyStatementCount: Int {
        var count = 0
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { count += 1 }
            statement = sqlite3_next_stmt(handle, current)
        }
        return count
    }

    /// Drops every cached statement (before a schema swap or a close).
    func clearStatementCache() {
        lastStatement = nil
        statementCache.removeAll()
    }

    // MARK: - State

    /// `sqlite3_changes`: rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    /// `sqlite3_total_changes`.
    var totalChanges: Int { Int(sqlite3_total_changes(handle)) }

    /// `sqlite3_last_insert_rowid`.
    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// `sqlite3_get_autocommit`: `false` inside a transaction.
    package var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// `sqlite3_interrupt`: makes a running statement fail with SQLITE_INTERRUPT.
    package func interrupt() { sqlite3_interrupt(handle) }

    // MARK: - Progress

    /// Calls `handler` about every `instructions` virtual-machine steps of a running statement
    /// (`sqlite3_progress_handler`). The handler must not use this connection; returning `true`
    /// interrupts the statement. `nil` removes the handler.
    package func setProgressHandler(every instructions: Int32, _ handler: (() -> Bool)?) {
        guard let handler else {
            sqlite3_progress_handler(handle, 0, nil, nil)
            progressHandler = nil
            return
        }
        let box = ProgressHandler(handler)
        progressHandler = box
        sqlite3_progress_handler(
            handle, instructions,
            { context in
                guard let context else { return 0 }
                return Unmanaged<ProgressHandler>.fromOpaque(context).takeUnretainedValue().body() ? 1 : 0
            }, Unmanaged.passUnretained(box).toOpaque())
    }

    /// Keeps the progress closure alive while SQLite holds a pointer to it.
    private final class ProgressHandler {
        let body: () -> Bool
        init(_ body: @escaping () -> Bool) { self.body = body }
    }
}

@available(*, unavailable)
extension Connection: Sendable {}
