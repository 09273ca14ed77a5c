import Foundation
import SQLCipherCore

// MARK: - ColumnEncoder

/// Encodes one column's value: a ``DatabaseValueConvertible`` through its conformance (never
/// Foundation's own `Codable` form: a `Date` is SQLite's date text, not seconds since 2001); a
/// type that encodes a single value (a `RawRepresentable` enum) through that value; a type that
/// needs a keyed or unkeyed container (a nested struct, an array) as JSON text — what the row
/// decoder reads back (Query/ColumnDecoder.swift).
final class ColumnEncoder: Encoder, SingleValueEncodingContainer {
    private let table: String
    private let column: String
    private var result: DatabaseValue?
    /// Set when the value asked for a keyed or unkeyed container.
    private var needsJSON = false
    /// What every method throws in a refusing encoder (a record's nested or super encoder).
    private let refusal: (any Error)?

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    private init(table: String, column: String, refusal: (any Error)?) {
        self.table = table
        self.column = column
        self.refusal = refusal
    }

    /// An encoder whose every write throws `error`.
    convenience init(refusing error: any Error) {
        self.init(table: "", column: "", refusal: error)
    }

    /// The value `value` stores in `column`.
    package static func value<T: Encodable>(of value: T, table: String, column: String) throws -> DatabaseValue {
        if let convertible = value as? any DatabaseValueConvertible { return convertible.databaseValue }
        let encoder = ColumnEncoder(table: table, column: column, refusal: nil)
        do {
            try value.encode(to: encoder)
        } catch is NeedsJSON {
            return try json(value, table: table, column: column)
        }
        if encoder.needsJSON { return try json(value, table: table, column: column) }
        guard let result = encoder.result else {
            throw RecordError.unencodable(table: table, column: column, reason: "its value encodes nothing")
        }
        return result
    }

    /// An unsigned integer as INTEGER, or ``RecordError/unencodable(table:column:reason:)``
    /// above `Int64.max` (SQLite's integers are signed 64-bit).
    static func integer<I: FixedWidthInteger & UnsignedInteger>(_ value: I, table: String, column: String) throws -> DatabaseValue {
        guard let wide = Int64(exactly: value) else {
            throw RecordError.unencodable(
                table: table, column: column, reason: "\(I.self) above \(Int64.max) does not fit SQLite's 64-bit signed INTEGER")
        }
        return .integer(wide)
    }

    private static func json<T: Encodable>(_ value: T, table: String, column: String) throws -> DatabaseValue {
        do {
            return .text(String(decoding: try JSONEncoder().encode(value), as: UTF8.self))
        } catch {
            throw RecordError.unencodable(table: table, column: column, reason: "its value does not encode as JSON (\(error))")
        }
    }

    /// Thrown by the containers a column cannot give, to switch to JSON.
    struct NeedsJSON: Error {}

    // MARK: - Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        needsJSON = true
        return KeyedEncodingContainer(RefusingKeyedContainer<Key>(error: refusal ?? NeedsJSON()))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        needsJSON = true
        return RefusingUnkeyedContainer(error: refusal ?? NeedsJSON())
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    // MARK: - Single value

    private func set(_ value: DatabaseValue) throws {
        if let refusal { throw refusal }
        result = value
    }

    func encodeNil() throws { try set(.null) }
    func encode(_ value: Bool) throws { try set(value.databaseValue) }
    func encode(_ value: String) throws { try set(value.databaseValue) }
    func encode(_ value: Double) throws { try set(value.databaseValue) }
    func encode(_ value: Float) throws { try set(Double(value).databaseValue) }
    func encode(_ value: Int) throws { try set(value.databaseValue) }
    func encode(_ value: Int8) throws { try set(Int64(value).databaseValue) }
    func encode(_ value: Int16) throws { try set(Int64(value).databaseValue) }
    func encode(_ value: Int32) throws { try set(value.databaseValue) }
    func encode(_ value: Int64) throws { try set(value.databaseValue) }
    func encode(_ value: UInt) throws { try set(Self.integer(value, table: table, column: column)) }
    func encode(_ value: UInt8) throws { try set(Int64(value).databaseValue) }
    func encode(_ value: UInt16) throws { try set(Int64(value).databaseValue) }
    func encode(_ value: UInt32) throws { try set(Int64(value).databaseValue) }
    func encode(_ value: UInt64) throws { try set(Self.integer(value, table: table, column: column)) }

    func encode<T: Encodable>(_ value: T) throws {
        if let refusal { throw refusal }
        try set(Self.value(of: value, table: table, column: column))
    }
}

// A ColumnEncoder lives inside one record call on one thread.
@available(*, unavailable)
extension ColumnEncoder: Sendable {}
