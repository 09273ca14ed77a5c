// MARK: - Throwing reads
import SQLCipherCore

extension Row {
    /// The value at a column index as a `T`, or an error that says which column and why:
    /// ``SQLiteError`` `range` when the row has no such column, `mismatch` when the value is
    /// NULL (read `T?` to accept it) or cannot be read as `T` (TEXT read as `Int`…).
    ///
    /// ```swift
    /// let id = try row.decode(Int64.self, at: 0)
    /// ```
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, at index: Int) throws -> T {
        try read(type, at: checkedIndex(index))
    }

    /// The value of the first column named `name` as a `T`; errors as ``decode(_:at:)``.
    ///
    /// ```swift
    /// let title = try row.decode(String.self, column: "title")
    /// let body = try row.decode(String?.self, column: "body")   // NULL is nil
    /// ```
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, column name: String) throws -> T {
        try read(type, at: checkedIndex(named: name))
    }

    /// The row as a `Decodable` type, each property from the column of the same name (its
    /// coding key), or from the first column for a single-value type.
    ///
    /// ```swift
    /// struct Note: Decodable { var id: Int64; var title: String; var body: String? }
    /// let note = try row.decode(Note.self)
    /// ```
    ///
    /// Each property reads like ``decode(_:column:)``; an optional property is `nil` for NULL
    /// or a missing column; a nested `Decodable` (a struct, an array) is read from the column's
    /// JSON text. A ``DatabaseValueConvertible`` type (`Date`, `UUID`, `URL`, `Decimal`,
    /// `Data`…) reads as its `init?(databaseValue:)` says, as a property or as the whole row
    /// (its first column), never through its own `Decodable` form: a `Date` is SQLite's date
    /// text or Unix time, not Foundation's seconds since 2001.
    ///
    /// - Throws: ``SQLiteError`` `range` for a missing column, `mismatch` for a value that does
    ///   not fit, naming the column (never its value); or what the type's `init(from:)` throws.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try RowDecoder.decode(type, from: self, oneValue: RowDecoder<Row>.readsOneValue(type))
    }
}
