// MARK: - Batch insert
import SQLCipherCore

extension Database {
    /// Inserts every record of `batch` with one prepared statement and returns their rowids,
    /// in order. All of them are inserted or none: the batch runs in a transaction (a savepoint
    /// inside one).
    ///
    /// ```swift
    /// try db.insert(contentsOf: notes)
    /// ```
    ///
    /// The first record's columns are the batch's: the statement is compiled once, and each
    /// later record's values bind to it in place (the column names are not collected again).
    ///
    /// - Throws: ``RecordError/columnsDiffer(table:expected:found:index:)`` when a record
    ///   encodes other columns than the first, and the errors of ``insert(_:)``; nothing of the
    ///   batch is written then.
    @inlinable @discardableResult
    public func insert<S: Sequence>(contentsOf batch: S) throws -> [Int64] where S.Element: Encodable & TableRecord {
        try insert(contentsOf: batch, into: S.Element.databaseTableName)
    }

    /// ``insert(contentsOf:)`` into `table`, for a type that is not a ``TableRecord``.
    ///
    /// Inlinable so that the loop over `batch` is specialised for its type in the caller.
    @inlinable @discardableResult
    public func insert<S: Sequence>(contentsOf batch: S, into table: String) throws -> [Int64] where S.Element: Encodable {
        var iterator = batch.makeIterator()
        guard let first = iterator.next() else { return [] }
        return try transaction(.immediate) { db in
            let insert = try RecordBatch(db, first, table: table, capacity: batch.underestimatedCount)
            while let record = iterator.next() { try insert.add(record) }
            return insert.ids
        }
    }
}

// MARK: - RecordBatch

/// One batch insert in progress: its statement, compiled once, and the encoder whose buffer of
/// values each record fills in place.
@usableFromInline
final class RecordBatch {
    private let db: Database
    private let template: RecordTemplate
    private let statement: Statement
    private let encoder: RecordEncoder
    /// The rowids so far, in order.
    @usableFromInline private(set) var ids: [Int64] = []

    /// Inserts `first`, whose columns are the batch's.
    @usableFromInline
    init<R: Encodable>(_ db: Database, _ first: R, table: String, capacity: Int) throws {
        self.db = db
        let (template, firstEncoder) = try db.encoded(first, table: table, primaryKey: nil)
        defer { template.giveBack(firstEncoder) }
        self.template = template
        statement = try db.recordStatement(template.insertSQL, table: table, columns: template.columns)
        encoder = RecordEncoder(table: table, columns: template.columns, reusable: true)
        ids.reserveCapacity(capacity)
        try db.run(statement, firstEncoder.values)
        ids.append(db.connection.lastInsertRowID)
    }

    deinit { encoder.dropContainer() }

    /// Inserts `record`, or throws ``RecordError/columnsDiffer(table:expected:found:index:)``.
    @usableFromInline
    func add<R: Encodable>(_ record: R) throws {
        guard try encoder.encode(record) else {
            let found = RecordEncoder(table: encoder.table)
            _ = try found.encode(record)
            throw RecordError.columnsDiffer(table: encoder.table, expected: template.columns, found: found.columns, index: ids.count)
        }
        try db.run(statement, encoder.values)
        ids.append(db.connection.lastInsertRowID)
    }
}

// A batch lives inside one transaction closure on one thread.
@available(*, unavailable)
extension RecordBatch: Sendable {}
