// MARK: - Records: insert, update, save, delete, fetch
import SQLCipherCore

extension Database {
    // MARK: Insert

    /// Inserts `record` as a new row of its table and returns its rowid (`sqlite3_last_insert_rowid`).
    ///
    /// ```swift
    /// let id = try db.insert(Note(id: nil, title: "Hello"))   // a nil INTEGER PRIMARY KEY is assigned
    /// ```
    ///
    /// Each coding key is a column, each value converted as a statement argument is
    /// (``DatabaseValueConvertible``: a `Date` as `YYYY-MM-DD HH:MM:SS.SSS` UTC text, a `UUID` as
    /// 16 bytes, `nil` as NULL); an enum stores its raw value, a nested `Encodable` its JSON text.
    ///
    /// - Throws: ``RecordError`` for a missing table or column; ``SQLiteError`` for a failed
    ///   constraint (a primary key already taken…). Nothing is written then.
    @discardableResult
    public func insert<R: Encodable & TableRecord>(_ record: R) throws -> Int64 {
        try insert(record, into: R.databaseTableName, primaryKey: nil)
    }

    /// Inserts `record` as a new row of `table` and returns its rowid: ``insert(_:)`` for a type
    /// that is not a ``TableRecord``.
    @discardableResult
    public func insert<R: Encodable>(_ record: R, into table: String) throws -> Int64 {
        try insert(record, into: table, primaryKey: nil)
    }

    /// The insert, its rowid read as `style` says (the tests run both on any SQLite).
    @discardableResult
    func insert<R: Encodable>(
        _ record: R, into table: String, primaryKey: [String]?, style: RecordSQL.InsertStyle = .linked
    ) throws -> Int64 {
        let (template, encoder) = try encoded(record, table: table, primaryKey: primaryKey)
        defer { template.giveBack(encoder) }
        if style == .returning, let statement = try returningStatement(template, encoder) {
            return try runReturningRowID(statement, encoder.values, template)
        }
        try runRecord(template.insertSQL, encoder)
        return lastInsertRowID
    }

    // MARK: Update

    /// Writes every column of `record` into the row with its primary key.
    ///
    /// - Throws: ``RecordError/notFound(table:)`` when no row has that key,
    ///   ``RecordError/primaryKeyIsNull(table:column:)`` for a `nil` key, and the errors of
    ///   ``insert(_:)``. Nothing is written then.
    public func update<R: Encodable & TableRecord>(_ record: R) throws {
        try update(record, in: R.databaseTableName, primaryKey: R.primaryKey)
    }

    /// ``update(_:)`` in `table`, whose primary key is `primaryKey`.
    public func update<R: Encodable>(_ record: R, in table: String, primaryKey: [String] = ["id"]) throws {
        let (template, encoder) = try encoded(record, table: table, primaryKey: primaryKey)
        defer { template.giveBack(encoder) }
        let plan = try template.update()
        _ = try nonNullKeyPositions(template, encoder)
        try runRecord(plan.sql, encoder, order: plan.order)
        guard changes > 0 else { throw RecordError.notFound(table: table) }
    }

    // MARK: Save

    /// Inserts `record`, or updates the row that has its primary key (an upsert); a `nil` key
    /// inserts a new row.
    ///
    /// On a linked SQLite 3.24 or later (checked at run time) one `INSERT … ON CONFLICT(key) DO
    /// UPDATE SET …`; on older ones (3.15 here) an `UPDATE … WHERE key = ?` and, when it changed
    /// no row, the `INSERT`, both in one transaction (`BEGIN IMMEDIATE`, or a savepoint inside
    /// a transaction), so that no other connection writes between them: two writers saving the
    /// same key never lose an update nor fail on the key.
    ///
    /// - Throws: the errors of ``insert(_:)`` and ``update(_:)``; nothing is written then.
    public func save<R: Encodable & TableRecord>(_ record: R) throws {
        try save(record, in: R.databaseTableName, primaryKey: R.primaryKey)
    }

    /// ``save(_:)`` in `table`, whose primary key is `primaryKey`.
    public func save<R: Encodable>(_ record: R, in table: String, primaryKey: [String] = ["id"]) throws {
        try save(record, in: table, primaryKey: primaryKey, style: .linked)
    }

    /// ``save(_:)`` written in `style` (the tests run both); `afterUpdate` runs between the
    /// emulation's `UPDATE` that changed no row and its `INSERT` (the tests let another writer in there).
    func save<R: Encodable>(
        _ record: R, in table: String, primaryKey: [String], style: RecordSQL.UpsertStyle, afterUpdate: (() -> Void)? = nil
    ) throws {
        let (template, encoder) = try encoded(record, table: table, primaryKey: primaryKey)
        defer { template.giveBack(encoder) }
        let plan = try template.upsert(style: style)
        if style == .native { return try runRecord(plan.sql, encoder, order: plan.order) }
        let keys = try template.keyPositions()
        if keys.contains(where: { encoder.values.isNull($0) }) { return try runRecord(template.insertSQL, encoder) }
        try transaction(.immediate) { db in
            try db.runRecord(plan.sql, encoder, order: plan.order)
            guard db.changes == 0 else { return }
            afterUpdate?()
            try db.runRecord(template.insertSQL, encoder)
        }
    }

    // MARK: Delete

    /// Deletes the row with `record`'s primary key; `false` when there was none.
    ///
    /// - Throws: ``RecordError/primaryKeyIsNull(table:column:)`` for a `nil` key, and the errors
    ///   of ``insert(_:)``.
    @discardableResult
    public func delete<R: Encodable & TableRecord>(_ record: R) throws -> Bool {
        try delete(record, from: R.databaseTableName, primaryKey: R.primaryKey)
    }

    /// ``delete(_:)`` from `table`, whose primary key is `primaryKey`.
    @discardableResult
    public func delete<R: Encodable>(_ record: R, from table: String, primaryKey: [String] = ["id"]) throws -> Bool {
        let (template, encoder) = try encoded(record, table: table, primaryKey: primaryKey)
        defer { template.giveBack(encoder) }
        let positions = try nonNullKeyPositions(template, encoder)
        try runRecord(RecordSQL.delete(table: table, primaryKey: positions.map { encoder.columns[$0] }), encoder, order: positions)
        return changes > 0
    }

    /// Deletes the row of `type`'s table whose one-column primary key is `id`; `false` when there was none.
    ///
    /// - Throws: ``RecordError/wrongKey(table:expected:given:)`` for a composite primary key
    ///   (give a `key:` dictionary), ``RecordError/tableMissing(table:)``.
    @discardableResult
    public func delete<R: TableRecord>(_ type: R.Type, id: some DatabaseValueConvertible) throws -> Bool {
        try delete(from: R.databaseTableName, primaryKey: R.primaryKey, key: [Self.singleKey(R.primaryKey, R.databaseTableName): id])
    }

    /// Deletes the row of `type`'s table whose primary-key columns hold `key`'s values
    /// (`["author": 1, "slug": "intro"]`); `false` when there was none.
    @discardableResult
    public func delete<R: TableRecord>(_ type: R.Type, key: [String: any DatabaseValueConvertible]) throws -> Bool {
        try delete(from: R.databaseTableName, primaryKey: R.primaryKey, key: key)
    }

    /// Deletes the row of `table` whose primary-key columns (`primaryKey`) hold `key`'s values;
    /// `false` when there was none.
    ///
    /// - Throws: ``RecordError/wrongKey(table:expected:given:)`` unless `key` names exactly the
    ///   primary-key columns, ``RecordError/tableMissing(table:)``.
    @discardableResult
    public func delete(from table: String, primaryKey: [String] = ["id"], key: [String: any DatabaseValueConvertible]) throws -> Bool {
        let values = try Self.orderedKey(key, table: table, primaryKey: primaryKey)
        let sql = RecordSQL.delete(table: table, primaryKey: primaryKey)
        let statement = try recordStatement(sql, table: table, columns: primaryKey)
        try run(statement, ParameterBuffer(values))
        return changes > 0
    }

    // MARK: Fetch

    /// The record of `type`'s table whose one-column primary key is `id`, or `nil`.
    ///
    /// ```swift
    /// let note = try db.fetch(Note.self, id: 1)
    /// ```
    ///
    /// The row (`SELECT *`) decodes as a `Decodable` fetch (`fetchOne(Note.self, sql)`) decodes it.
    ///
    /// - Throws: ``RecordError/wrongKey(table:expected:given:)`` for a composite primary key
    ///   (give a `key:` dictionary), ``RecordError/tableMissing(table:)``, ``SQLiteError`` when
    ///   the row does not decode.
    public func fetch<R: Decodable & TableRecord>(_ type: R.Type, id: some DatabaseValueConvertible) throws -> R? {
        try fetch(type, from: R.databaseTableName, primaryKey: R.primaryKey, key: [Self.singleKey(R.primaryKey, R.databaseTableName): id])
    }

    /// The record of `type`'s table whose primary-key columns hold `key`'s values, or `nil`.
    public func fetch<R: Decodable & TableRecord>(_ type: R.Type, key: [String: any DatabaseValueConvertible]) throws -> R? {
        try fetch(type, from: R.databaseTableName, primaryKey: R.primaryKey, key: key)
    }

    /// The row of `table` whose primary-key columns (`primaryKey`) hold `key`'s values, decoded
    /// as `type`, or `nil`.
    ///
    /// - Throws: ``RecordError/wrongKey(table:expected:given:)`` unless `key` names exactly the
    ///   primary-key columns, ``RecordError/tableMissing(table:)``, ``SQLiteError`` when the row
    ///   does not decode.
    public func fetch<R: Decodable>(
        _ type: R.Type, from table: String, primaryKey: [String] = ["id"], key: [String: any DatabaseValueConvertible]
    ) throws -> R? {
        let values = try Self.orderedKey(key, table: table, primaryKey: primaryKey)
        let sql = RecordSQL.select(table: table, primaryKey: primaryKey)
        do {
            return try decodeFirst(type, sql, .values(values))
        } catch let error as SQLiteError where error.code == .error {
            throw try recordFailure(error, table: table, columns: primaryKey)
        }
    }

    /// The one primary-key column, or ``RecordError/wrongKey(table:expected:given:)``.
    private static func singleKey(_ primaryKey: [String], _ table: String) throws -> String {
        guard primaryKey.count == 1 else {
            throw RecordError.wrongKey(table: table, expected: primaryKey, given: ["id"])
        }
        return primaryKey[0]
    }
}
