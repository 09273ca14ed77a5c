import Foundation
import SQLCipherCore

// MARK: - ColumnDecoder

/// Decodes one column: a property of a `Decodable` row, or a whole single-column row.
///
/// ``DatabaseValueConvertible`` types (the integers, `Double`, `String`, `Data`, `Bool`, `Date`,
/// `UUID`, `URL`, `Decimal`…) read the value directly, never through their own `init(from:)`; the other integers and `Float` go through `Int64` / `Double` and must
/// fit exactly; a `RawRepresentable` enum or any type that decodes from a single value works
/// through those. A type that needs a keyed or unkeyed container (a nested struct, an array)
/// is decoded from the column's text or blob as JSON.
struct ColumnDecoder<Columns: ColumnReader>: Decoder, SingleValueDecodingContainer {
    let columns: Columns
    package let index: Int

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    // MARK: - Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw NeedsJSON()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NeedsJSON() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: - Single value

    func decodeNil() -> Bool { columns.databaseValue(at: index).isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try columns.read(type, at: index) }
    func decode(_ type: String.Type) throws -> String { try columns.read(type, at: index) }
    func decode(_ type: Double.Type) throws -> Double { try columns.read(type, at: index) }
    func decode(_ type: Float.Type) throws -> Float { Float(try columns.read(Double.self, at: index)) }
    func decode(_ type: Int.Type) throws -> Int { try columns.read(type, at: index) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try columns.read(type, at: index) }
    func decode(_ type: Int64.Type) throws -> Int64 { try columns.read(type, at: index) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let convertible = type as? any DatabaseValueConvertible.Type {
            // The cast above proved that T is this convertible type.
            return try readConvertible(convertible) as! T
        }
        do {
            return try T(from: self)
        } catch is NeedsJSON {
            return try decodeJSON(type)
        }
    }

    // MARK: - Conversions

    private func readConvertible<V: DatabaseValueConvertible>(_ type: V.Type) throws -> V {
        try columns.read(type, at: index)
    }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        let value = columns.databaseValue(at: index)
        guard let wide = Int64(databaseValue: value), let result = I(exactly: wide) else {
            throw columns.cannotRead(value, as: "\(I.self)", at: index)
        }
        return result
    }

    /// A nested `Decodable` stored as JSON text (or a JSON blob) in the column.
    private func decodeJSON<T: Decodable>(_ type: T.Type) throws -> T {
        let value = columns.databaseValue(at: index)
        let data: Data
        switch value {
        case .text(let text): data = Data(text.utf8)
        case .blob(let blob): data = blob
        default: throw columns.cannotRead(value, as: "\(T.self) (decoded from JSON text)", at: index)
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            let base = columns.cannotRead(value, as: "\(T.self)", at: index)
            throw SQLiteError(extendedCode: .mismatch, message: (base.message ?? "") + ": its JSON does not decode")
        }
    }

    /// Thrown by the containers a column cannot give, to switch to JSON.
    struct NeedsJSON: Error {}
}
