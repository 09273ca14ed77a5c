// MARK: - ColumnReader
import SQLCipherCore

/// Columns read by index or name, with errors that say which column and why: what the
/// throwing reads of ``Row`` and the `Decodable` decoder share. A ``Row`` is one; so is a
/// running statement read in place (``StatementColumns``).
protocol ColumnReader {
    /// The column names, in select order.
    var columnNames: [String] { get }
    /// The value of a column; `index` is in range.
    func databaseValue(at index: Int) -> DatabaseValue
}

extension ColumnReader {
    /// `index`, or ``SQLiteError`` `range` when the row has no such column.
    func checkedIndex(_ index: Int) throws -> Int {
        guard columnNames.indices.contains(index) else { throw cannotFind(index) }
        return index
    }

    /// The `range` error for a column index the row does not have.
    func cannotFind(_ index: Int) -> SQLiteError {
        SQLiteError(
            extendedCode: .range,
            message: "column index \(index) is out of range: the row has \(columnNames.count) column"
                + (columnNames.count == 1 ? "" : "s") + " (\(columnNames.joined(separator: ", ")))")
    }

    /// The index of the first column named `name`, or ``SQLiteError`` `range`.
    func checkedIndex(named name: String) throws -> Int {
        guard let index = columnNames.firstIndex(of: name) else {
            throw SQLiteError(
                extendedCode: .range,
                message: "no column named \"\(name)\": the row has "
                    + (columnNames.isEmpty ? "no columns" : columnNames.joined(separator: ", ")))
        }
        return index
    }

    /// The column at `index` as a `T`, or ``SQLiteError`` `mismatch` saying what it holds. The
    /// message names the column and its storage class, never its value.
    package func read<T: DatabaseValueConvertible>(_ type: T.Type, at index: Int) throws -> T {
        let value = databaseValue(at: index)
        if let result = T(databaseValue: value) { return result }
        throw cannotRead(value, as: "\(T.self)", at: index)
    }

    /// The `mismatch` error for a column that does not hold a `typeName`.
    func cannotRead(_ value: DatabaseValue, as typeName: String, at index: Int) -> SQLiteError {
        let column = "column \"\(columnNames[index])\" (index \(index))"
        let reason =
            value.isNull
            ? "\(column) is NULL, which cannot be read as \(typeName); read it as an Optional to accept NULL"
            : "\(column) holds \(value.storageClass), which cannot be read as \(typeName)"
        return SQLiteError(extendedCode: .mismatch, message: reason)
    }
}

extension Row: ColumnReader {
    func databaseValue(at index: Int) -> DatabaseValue { storage.value(at: index) }
}

/// The current row of a running statement, read in place: a `Decodable` fetch decodes each
/// row without building a ``Row``. The names are read once per query.
struct StatementColumns: ColumnReader {
    let statement: Statement
    package let columnNames: [String]

    func databaseValue(at index: Int) -> DatabaseValue { statement.value(at: Int32(index)) }
}

extension DatabaseValue {
    /// The SQLite storage class: INTEGER, REAL, TEXT, BLOB or NULL.
    var storageClass: String {
        switch self {
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        case .null: "NULL"
        }
    }
}
