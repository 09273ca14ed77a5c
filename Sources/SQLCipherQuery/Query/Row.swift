// MARK: - Row
import SQLCipherCore

/// One result row: column names and values, copied out of the statement.
///
/// The values of a row live in one heap block (its texts and blobs included), and the rows of
/// one query share one array of column names. The rows of one `fetchAll` are packed side by
/// side in shared blocks of up to 16 KiB (a row of more than 4 KiB gets its own), so many rows
/// cost few allocations and a kept row keeps at most one such block alive. ``values`` and the
/// subscripts build each ``DatabaseValue`` on demand.
public struct Row: Sendable, Hashable, CustomStringConvertible {
    /// The column names, in select order (kept once per block of rows, not per row).
    public var columnNames: [String] { storage.columnNames }
    @usableFromInline let storage: RowStorage

    /// Creates a row.
    public init(columnNames: [String], values: [DatabaseValue]) {
        storage = RowStorage.make(values, names: columnNames)
    }

    /// A row of values copied out of a statement, with their names in the block.
    package init(storage: RowStorage) {
        self.storage = storage
    }

    /// The values, in select order.
    public var values: [DatabaseValue] { (0..<count).map { storage.value(at: $0) } }

    /// The number of columns.
    @inlinable
    public var count: Int { storage.count }

    /// The value at a column index (which must be in range, as for an array).
    @inlinable
    public subscript(index: Int) -> DatabaseValue {
        precondition(index >= 0 && index < count, "Row index \(index) out of range: the row has \(count) columns")
        return storage.value(at: index)
    }

    /// The value of the first column with this name, or `nil` when there is no such column.
    public subscript(name: String) -> DatabaseValue? {
        columnNames.firstIndex(of: name).map { self[$0] }
    }

    /// The value at a column index as a Swift type, or `nil` for NULL or an unconvertible value.
    ///
    /// A TEXT read as `String`, an INTEGER as `Int64` or `Int` and a REAL as `Double` are read
    /// straight from the row's block, without a ``DatabaseValue`` in between; every other
    /// combination converts as `T(databaseValue:)` does.
    @inlinable
    public func value<T: DatabaseValueConvertible>(_ index: Int, as type: T.Type = T.self) -> T? {
        precondition(index >= 0 && index < count, "Row index \(index) out of range: the row has \(count) columns")
        if T.self == String.self, let text = storage.text(at: index) { return text as? T }
        if T.self == Int64.self, let int = storage.int64(at: index) { return int as? T }
        if T.self == Int.self, let int = storage.int64(at: index) { return Int(exactly: int) as? T }
        if T.self == Double.self, let real = storage.double(at: index) { return real as? T }
        return T(databaseValue: storage.value(at: index))
    }

    /// The value of a named column as a Swift type, or `nil`.
    public func value<T: DatabaseValueConvertible>(_ name: String, as type: T.Type = T.self) -> T? {
        self[name].flatMap { T(databaseValue: $0) }
    }

    /// `name=value` for each column, separated by commas (values as ``DatabaseValue/description``).
    public var description: String {
        zip(columnNames, values).map { "\($0)=\($1)" }.joined(separator: ", ")
    }

    /// Rows are equal when their column names and values are.
    public static func == (lhs: Row, rhs: Row) -> Bool {
        lhs.columnNames == rhs.columnNames && (lhs.storage.isSame(as: rhs.storage) || lhs.values == rhs.values)
    }

    /// Hashes the column names and the values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(columnNames)
        hasher.combine(values)
    }
}

extension Statement {
    /// The current row as a ``Row`` that outlives the step, with the statement's shared column
    /// names (`currentColumnNames()`).
    @usableFromInline
    func row() -> Row {
        Row(storage: rowStorage(names: currentColumnNames()))
    }
}
