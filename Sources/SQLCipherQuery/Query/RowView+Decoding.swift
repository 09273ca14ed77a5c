// MARK: - Throwing reads in place
import SQLCipherCore

extension RowView {
    /// The column at `index` as a `T`, read in place, or an error that says which column and
    /// why, as ``Row/decode(_:at:)``: ``SQLiteError`` `range` for an index out of range,
    /// `mismatch` for NULL (read `T?` to accept it) or a value that is not a `T`. The column
    /// names are read only to write an error.
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, at index: Int) throws -> T {
        guard index >= 0, index < count else { throw columns.cannotFind(index) }
        let value = self[index]
        if let result = T(databaseValue: value) { return result }
        throw columns.cannotRead(value, as: "\(T.self)", at: index)
    }

    /// The value of the first column named `name` as a `T`; errors as ``decode(_:at:)``, `range`
    /// when no column has that name.
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, column name: String) throws -> T {
        try decode(type, at: try columns.checkedIndex(named: name))
    }

    /// The current row as a `Decodable` type, read in place: see ``Row/decode(_:)``.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try RowDecoder.decode(type, from: columns, oneValue: RowDecoder<StatementColumns>.readsOneValue(type))
    }

    /// The row's columns for the shared readers and their errors.
    private var columns: StatementColumns { StatementColumns(statement: liveStatement, columnNames: columnNames) }
}
