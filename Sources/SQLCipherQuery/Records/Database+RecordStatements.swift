// MARK: - The record calls' paths
import SQLCipherCore

extension Database {
    /// `record` encoded for `table`, with the template of its type (give the encoder back to it
    /// with ``RecordTemplate/giveBack(_:)`` when done): the cached one when the
    /// record encodes its columns (the names are not collected again) and, unless `primaryKey`
    /// is `nil` (an insert needs none), has this primary key; else one made from it.
    func encoded<R: Encodable>(
        _ record: R, table: String, primaryKey: [String]?
    ) throws -> (RecordTemplate, RecordEncoder) {
        let key = RecordTemplate.Key(type: ObjectIdentifier(R.self), table: table)
        if let template = RecordTemplate.cached(key), primaryKey == nil || primaryKey == template.sql.primaryKey {
            let encoder = template.takeEncoder()
            do {
                if try encoder.encode(record) { return (template, encoder) }
            } catch {
                template.giveBack(encoder)
                throw error
            }
            template.giveBack(encoder)
        }
        let encoder = RecordEncoder(table: table)
        _ = try encoder.encode(record)
        guard !encoder.columns.isEmpty else { throw RecordError.noColumns(table: table) }
        let template = RecordTemplate(RecordSQL(table: table, columns: encoder.columns, primaryKey: primaryKey ?? []))
        RecordTemplate.remember(template, for: key)
        return (template, encoder)
    }

    /// The cached statement for `sql`, its bindings kept (every run binds every parameter);
    /// a missing table or column named as a ``RecordError``.
    func recordStatement(_ sql: String, table: String, columns: [String]) throws -> Statement {
        do {
            return try liveConnection(sql).cachedStatement(sql, clearingBindings: false)
        } catch let error as SQLiteError {
            throw try recordFailure(error, table: table, columns: columns)
        }
    }

    /// Binds `values` (in `order`) and runs the statement to its end, reset afterwards.
    func run(_ statement: Statement, _ values: ParameterBuffer, order: [Int]? = nil) throws {
        defer { statement.resetKeepingBindings() }
        try values.bind(to: statement, order: order)
        try statement.runToEnd()
    }

    /// Prepares and runs `sql` with `values` (in `order`).
    func runRecord(_ sql: String, _ encoder: RecordEncoder, order: [Int]? = nil) throws {
        let statement = try recordStatement(sql, table: encoder.table, columns: encoder.columns)
        try run(statement, encoder.values, order: order)
    }

    /// What a statement that did not compile says about the table: ``RecordError/tableMissing(table:)``
    /// when `PRAGMA table_info` finds no such table or view, ``RecordError/unknownColumns(table:columns:)``
    /// for the columns it lacks; otherwise SQLite's error.
    func recordFailure(_ error: SQLiteError, table: String, columns: [String]) throws -> any Error {
        guard error.code == .error else { return error }
        let existing = try fetchAll("PRAGMA table_info(\(RecordSQL.quote(table)))", arguments: [])
            .compactMap { $0.value("name", as: String.self)?.lowercased() }
        guard !existing.isEmpty else { return RecordError.tableMissing(table: table) }
        let unknown = columns.filter { !existing.contains($0.lowercased()) }
        return unknown.isEmpty ? error : RecordError.unknownColumns(table: table, columns: unknown)
    }

    /// The positions of the primary-key columns of an encoded record whose key has no NULL, or ``RecordError/primaryKeyIsNull(table:column:)``.
    func nonNullKeyPositions(_ template: RecordTemplate, _ encoder: RecordEncoder) throws -> [Int] {
        let positions = try template.keyPositions()
        if let null = positions.first(where: { encoder.values.isNull($0) }) {
            throw RecordError.primaryKeyIsNull(table: encoder.table, column: encoder.columns[null])
        }
        return positions
    }

    /// The values of `key` in primary-key order, or ``RecordError/wrongKey(table:expected:given:)``
    /// unless it names each primary-key column once (in any case) and no other.
    static func orderedKey(
        _ key: [String: any DatabaseValueConvertible], table: String, primaryKey: [String]
    ) throws -> [DatabaseValue] {
        guard !primaryKey.isEmpty else { throw RecordError.noPrimaryKey(table: table) }
        let given = key.mapValues(\.databaseValue)
        let lowered = Dictionary(given.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        let values = primaryKey.compactMap { lowered[$0.lowercased()] }
        guard values.count == primaryKey.count, lowered.count == primaryKey.count, given.count == primaryKey.count else {
            throw RecordError.wrongKey(table: table, expected: primaryKey, given: given.keys.sorted())
        }
        return values
    }
}

// MARK: - Insert … RETURNING

extension Database {
    /// The cached `INSERT … RETURNING rowid` statement of `template`, or `nil` when the plain
    /// insert is to run: the record has no free name for the rowid, or SQLite compiles the
    /// plain insert but not this one (a table without rowid, a view), which is then remembered.
    func returningStatement(_ template: RecordTemplate, _ encoder: RecordEncoder) throws -> Statement? {
        guard let sql = template.insertReturningSQL, !template.isReturningRefused else { return nil }
        do {
            return try recordStatement(sql, table: encoder.table, columns: encoder.columns)
        } catch let error as SQLiteError where error.code == .error {
            // Throws the plain insert's own error when that one does not compile either.
            _ = try recordStatement(template.insertSQL, table: encoder.table, columns: encoder.columns)
            template.refuseReturning()
            return nil
        }
    }

    /// Binds `values`, runs the insert and returns the rowid of its one row; when it returns no
    /// row (a `BEFORE INSERT` trigger's `RAISE(IGNORE)`), `sqlite3_last_insert_rowid`, as the
    /// plain insert would. A virtual table's `RETURNING rowid` reads -1 (FTS5 on 3.46) where
    /// `sqlite3_last_insert_rowid` has the row's: the latter is returned then, and the template
    /// takes the plain insert from then on.
    func runReturningRowID(_ statement: Statement, _ values: ParameterBuffer, _ template: RecordTemplate) throws -> Int64 {
        defer { statement.resetKeepingBindings() }
        try values.bind(to: statement, order: nil)
        guard try statement.step() else { return lastInsertRowID }
        let rowid = statement.int64(at: 0)
        try statement.runToEnd()
        guard rowid == lastInsertRowID else {
            template.refuseReturning()
            return lastInsertRowID
        }
        return rowid
    }
}
