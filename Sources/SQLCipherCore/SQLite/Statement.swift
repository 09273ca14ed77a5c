internal import CSQLCipher
import Foundation

// MARK: - Statement

/// A prepared statement (`sqlite3_stmt`), finalized on deinit.
/// `@usableFromInline` only so that ``DatabaseValueBinder`` can carry it through the inlinable
/// ``PreparedStatement`` entry points; its members stay internal.
@usableFromInline
package final class Statement {
    let handle: OpaquePointer
    package let sql: String
    private unowned let connection: Connection
    /// The parameters' names (``readParameterNames()``), read once per statement: a cached
    /// statement bound by name again and again reads them from SQLite only the first time.
    lazy var parameterNames: [String?] = readParameterNames()
    /// The column names as last read (``currentColumnNames()``), shared by the rows it copies.
    var cachedColumnNames: [String]?
    /// The same names as NUL-terminated UTF-8, one after the other, for the comparison.
    var packedColumnNames: [CChar] = []
    /// The connection's compile count when ``cachedColumnNames`` were last known to be the
    /// statement's: while it is unchanged the statement cannot have been re-prepared.
    var columnNamesCompile: UInt64 = 0
    /// The connection's ``CompileCounter`` (kept here: the unowned connection is costly to load).
    let compiles: CompileCounter
    /// Bumped by every step, reset and ``finalize()``: a `RowView` remembers the value of
    /// the step that produced it and is valid only while it is unchanged.
    ///
    /// `generation` and `isFinalized` are read by the getters inlined into client code
    /// (`RowView`), where Swift would check exclusive access at run time (two
    /// runtime calls per read): a statement is used by one thread at a time, and nothing
    /// holds an `inout` access to either while a row is read, so the checks are off.
    @usableFromInline @exclusivity(unchecked) package private(set) var generation: UInt64 = 0
    /// `true` from a step (``step()``) to the next reset: only then has `sqlite3_reset` work to do.
    private var steppedSinceReset = false
    /// `true` once ``finalize()`` ran (the connection closed): the handle must not be used.
    @usableFromInline @exclusivity(unchecked) package private(set) var isFinalized = false
    /// `true` while a ``RowCursor`` steps this statement (`Connection.leaseStatement`): the
    /// statement cache never hands it to another call meanwhile.
    var isLeased = false

    /// The copies of the texts and blobs a ``DatabaseValueBinder`` lends to SQLite.
    let lent = LentBytes()

    /// The tables the statement reads, when its compile reported them (an observation's query).
    let readTables: Set<String>?
    /// What it writes and the connection's tracker, when the connection tracks its commits.
    private let writes: (tables: TableAccess, tracker: ChangeTracker)?

    package init(handle: OpaquePointer, sql: String, connection: Connection, access: TableAccess? = nil) {
        self.handle = handle
        self.sql = sql
        self.connection = connection
        compiles = connection.compiles
        readTables = connection.compiles.reporting.contains(.reads) ? access?.reads : nil
        if let access, access.changesSchema || !access.writes.isEmpty, let tracker = connection.changeTracker {
            writes = (TableAccess(writes: access.writes, changesSchema: access.changesSchema), tracker)
        } else {
            writes = nil
        }
    }

    deinit { if !isFinalized { sqlite3_finalize(handle) } }

    /// `sqlite3_finalize` now rather than on deinit, for a statement that may outlive its
    /// connection's close (one a ``RowCursor`` holds): later rows see a new ``generation``.
    package func finalize() {
        guard !isFinalized else { return }
        sqlite3_finalize(handle)
        isFinalized = true
        generation &+= 1
    }

    // MARK: - Binding

    /// Binds every argument in order (`sqlite3_bind_*`), after checking the count.
    package func bind(_ arguments: [DatabaseValue]) throws {
        try checkArgumentCount(arguments.count)
        for (offset, value) in arguments.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds Swift values in order (an array of `arguments:`), each one through its own
    /// ``DatabaseValueConvertible/bind(to:)`` (no `DatabaseValue` for the built-in types, no
    /// `[DatabaseValue]` array).
    package func bind(_ arguments: [(any DatabaseValueConvertible)?]) throws {
        try checkArgumentCount(arguments.count)
        lent.startPass()
        for (offset, value) in arguments.enumerated() {
            let index = Int32(offset + 1)
            if let value {
                try value.bind(to: DatabaseValueBinder(statement: self, index: index, lends: true))
            } else {
                try bindNull(at: index)
            }
        }
    }

    /// Throws `SQLITE_RANGE` unless the statement has exactly `count` parameters.
    @usableFromInline
    package func checkArgumentCount(_ count: Int) throws {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard count == expected else {
            throw SQLiteError(
                extendedCode: .range,
                message: "wrong number of arguments: \(count) given, \(expected) expected",
                sql: sql)
        }
    }

    /// Binds one value at a 1-based index. Text and blobs are copied by SQLite.
    package func bind(_ value: DatabaseValue, at index: Int32) throws {
        switch value {
        case .integer(let int): try bind(int64: int, at: index)
        case .real(let double): try bind(double: double, at: index)
        case .null: try bindNull(at: index)
        case .text(let string): try bind(text: string, at: index)
        case .blob(let data): try bind(blob: data, at: index)
        }
    }

    /// `sqlite3_bind_int64` at a 1-based index.
    package func bind(int64 value: Int64, at index: Int32) throws {
        try check(bindResult: sqlite3_bind_int64(handle, index, value))
    }

    /// `sqlite3_bind_double` at a 1-based index.
    package func bind(double value: Double, at index: Int32) throws {
        try check(bindResult: sqlite3_bind_double(handle, index, value))
    }

    /// `sqlite3_bind_null` at a 1-based index.
    func bindNull(at index: Int32) throws {
        try check(bindResult: sqlite3_bind_null(handle, index))
    }

    /// Binds text (copied by SQLite, `SQLITE_TRANSIENT`) at a 1-based index. Native strings
    /// expose their UTF-8 in place (no copy of the String value, one C call); others (bridged,
    /// lazily decoded) are made contiguous first.
    @inline(__always)
    package func bind(text string: String, at index: Int32) throws {
        let rc =
            string.utf8.withContiguousStorageIfAvailable { csqlcipher_bind_text(handle, index, $0.baseAddress, Int32($0.count)) }
            ?? bind(contiguousCopyOf: string, at: index)
        try check(bindResult: rc)
    }

    /// Binds text from the statement's own copy (``LentBytes``, `SQLITE_STATIC`): what a
    /// ``DatabaseValueBinder`` does, without SQLite's allocation per value.
    @inline(__always)
    package func bind(lentText string: String, at index: Int32) throws {
        let rc =
            string.utf8.withContiguousStorageIfAvailable { bytes in
                csqlcipher_bind_text_nocopy(handle, index, lent.copy(UnsafeRawBufferPointer(bytes)), Int32(bytes.count))
            } ?? bind(contiguousCopyOf: string, at: index)
        try check(bindResult: rc)
    }

    /// Binds a blob from the statement's own copy (``LentBytes``, `SQLITE_STATIC`); an empty
    /// one stays a blob, not NULL.
    package func bind(lentBlob data: Data, at index: Int32) throws {
        try check(bindResult: data.withUnsafeBytes { csqlcipher_bind_blob_nocopy(handle, index, lent.copy($0), Int32($0.count)) })
    }

    /// The text of a string without contiguous UTF-8, bound from a contiguous copy.
    @inline(never)
    private func bind(contiguousCopyOf string: String, at index: Int32) -> Int32 {
        var copy = string
        return copy.withUTF8 { csqlcipher_bind_text(handle, index, $0.baseAddress, Int32($0.count)) }
    }

    /// Binds a blob (copied by SQLite) at a 1-based index; an empty one stays a blob, not NULL.
    package func bind(blob data: Data, at index: Int32) throws {
        try check(bindResult: data.withUnsafeBytes { bindBlob($0, at: index) })
    }

    /// Only a failure needs the connection (an unowned reference, costly to load per value).
    @inline(__always)
    func check(bindResult rc: Int32) throws {
        if rc != SQLITE_OK { try bindFailed(rc) }
    }

    /// The error of a failed `sqlite3_bind_*`, kept out of line.
    @inline(never)
    private func bindFailed(_ rc: Int32) throws {
        try connection.check(rc, sql: sql)
    }

    /// Binds key material as a blob that SQLite reads from `bytes` itself (`SQLITE_STATIC`): no
    /// copy is made, neither a Swift `Data` nor one in SQLite's heap (freed without wiping).
    /// `bytes` must stay valid until the statement has run; ``clearBindings()`` drops the pointer.
    /// An empty buffer binds an empty blob, not NULL.
    package func bind(secret bytes: UnsafeRawBufferPointer, at index: Int32) throws {
        let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)
        try connection.check(csqlcipher_bind_blob_nocopy(handle, index, base, Int32(bytes.count)), sql: sql)
    }

    /// `sqlite3_clear_bindings`: every parameter back to NULL.
    package func clearBindings() { sqlite3_clear_bindings(handle) }

    private func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int32) -> Int32 {
        // A zero-length blob still needs a non-NULL pointer, or SQLite binds NULL.
        csqlcipher_bind_blob(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count))
    }

    /// Resets the statement and clears its bindings (`sqlite3_reset`, `sqlite3_clear_bindings`).
    package func reset() {
        resetKeepingBindings()
        sqlite3_clear_bindings(handle)
    }

    /// Resets the statement but keeps its bindings (`sqlite3_reset` only), for a caller that
    /// rebinds every parameter before the next step. A statement not stepped since its last
    /// reset is left alone (a cached statement is reset after its use and again before the
    /// next: the second `sqlite3_reset` would only rewind what is already rewound).
    package func resetKeepingBindings() {
        generation &+= 1
        guard steppedSinceReset else { return }
        steppedSinceReset = false
        sqlite3_reset(handle)
    }

    // MARK: - Stepping

    /// Steps once (`sqlite3_step`): `true` when a row is available, `false` when done.
    @discardableResult
    package func step() throws -> Bool {
        try Interruption.checkpoint()
        generation &+= 1
        if let writes, !steppedSinceReset { writes.tracker.willRun(writing: writes.tables) }
        steppedSinceReset = true
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = connection.lastError(code: rc, sql: sql)
            sqlite3_reset(handle)
            Interruption.noteFailedStep()
            throw error
        }
    }

    // MARK: - Columns

    package var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The column names (`sqlite3_column_name`).
    package var columnNames: [String] {
        (0..<Int32(columnCount)).map { String(cString: sqlite3_column_name(handle, $0)) }
    }

    /// The value of a column of the current row (`sqlite3_column_*`).
    package func value(at index: Int32) -> DatabaseValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT: return .text(text(at: index) ?? "")
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default: return .null
        }
    }

    /// The current row's values.
    func rowValues() -> [DatabaseValue] {
        (0..<Int32(columnCount)).map { value(at: $0) }
    }

    /// A column as Int64 (`sqlite3_column_int64`).
    @usableFromInline
    package func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// A column as Double (`sqlite3_column_double`).
    @usableFromInline
    package func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// A column as text (`sqlite3_column_value`, `sqlite3_value_text`, `_bytes`: one column lookup), `nil` for NULL.
    @usableFromInline
    package func text(at index: Int32) -> String? {
        var count: Int32 = 0
        guard let pointer = csqlcipher_column_utf8(handle, index, &count) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: Int(count)), as: UTF8.self)
    }

    /// Calls `body` with a column's text as UTF-8 bytes in place (one column lookup, as `text(at:)`), an
    /// empty buffer for NULL; the bytes are valid only until the next step.
    @usableFromInline
    package func withText<R>(at index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        var count: Int32 = 0
        let pointer = csqlcipher_column_utf8(handle, index, &count)
        return try body(UnsafeBufferPointer(start: pointer, count: Int(count)))
    }

    /// `true` when the column of the current row is NULL.
    @usableFromInline
    package func isNull(at index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }
}

@available(*, unavailable)
extension Statement: Sendable {}
