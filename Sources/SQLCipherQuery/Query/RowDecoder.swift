// MARK: - RowDecoder
import SQLCipherCore

/// Decodes a row into a `Decodable` type: each property from the column of the same name
/// (the coding key's `stringValue`, so `CodingKeys` can map other names). A type that decodes
/// from a single value (`Int`, `String`, a `RawRepresentable` enum) reads the first column.
///
/// A missing column is an error for a non-optional property and `nil` for an optional one
/// (`decodeIfPresent`), as with every `Decoder`. Errors are ``SQLiteError``: `range` for a
/// missing column, `mismatch` for a value of the wrong type, naming the column.
struct RowDecoder<Columns: ColumnReader>: Decoder {
    let columns: Columns

    /// `true` when a row decodes into `T` as one column read through its
    /// ``DatabaseValueConvertible`` conformance (`Date`, `UUID`, `URL`, `Decimal`, `Data`…),
    /// not through its own `init(from:)` (Foundation's `Date` reads a Double of seconds since
    /// 2001 there, `URL` and `Decimal` a keyed container). Asked once per query.
    static func readsOneValue<T: Decodable>(_ type: T.Type) -> Bool {
        type is any DatabaseValueConvertible.Type
    }

    /// The row as a `T`: its first column when `oneValue` (``readsOneValue(_:)``), otherwise
    /// through `T(from:)` with each property from its column.
    static func decode<T: Decodable>(_ type: T.Type, from columns: Columns, oneValue: Bool) throws -> T {
        guard oneValue else { return try T(from: RowDecoder(columns: columns)) }
        return try ColumnDecoder(columns: columns, index: columns.checkedIndex(0)).decode(type)
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowContainer<Key, Columns>(columns: columns))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw SQLiteError(
            extendedCode: .mismatch,
            message: "a row decodes into a type with properties named like its columns, or a single value; not an array")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ColumnDecoder(columns: columns, index: try columns.checkedIndex(0))
    }
}

// MARK: - RowContainer

/// The keyed container of a row: a key is a column name.
struct RowContainer<Key: CodingKey, Columns: ColumnReader>: KeyedDecodingContainerProtocol {
    let columns: Columns

    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { columns.columnNames.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { columns.columnNames.contains(key.stringValue) }

    /// The decoder of the key's column, or ``SQLiteError`` `range`.
    private func column(_ key: Key) throws -> ColumnDecoder<Columns> {
        ColumnDecoder(columns: columns, index: try columns.checkedIndex(named: key.stringValue))
    }

    func decodeNil(forKey key: Key) throws -> Bool { try column(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try column(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try column(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try column(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try column(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try column(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try column(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try column(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try column(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try column(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try column(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try column(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try column(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try column(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try column(key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try column(key).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw Self.notNested(key)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw Self.notNested(key) }

    func superDecoder() throws -> any Decoder { throw Self.notNested(nil) }

    func superDecoder(forKey key: Key) throws -> any Decoder { throw Self.notNested(key) }

    private static func notNested(_ key: Key?) -> SQLiteError {
        SQLiteError(
            extendedCode: .mismatch,
            message: "a row's columns are flat: no nested container" + (key.map { " for \"\($0.stringValue)\"" } ?? "")
                + " (a nested Decodable property is read from its column's JSON text)")
    }
}
