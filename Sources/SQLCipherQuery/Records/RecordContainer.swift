// MARK: - RecordContainer
import SQLCipherCore

/// The keyed container of a record: a key is a column. Every value goes through its
/// ``DatabaseValueConvertible`` conformance, directly for the standard types; any other
/// `Encodable` through a ``ColumnEncoder`` (a `RawRepresentable` enum stores its raw value, a
/// nested struct or an array its JSON text, as the row decoder reads them).
struct RecordContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    /// Strong: a batch's encoder that keeps this container for its next record drops it at
    /// the end of the batch (``RecordEncoder/dropContainer()``), which breaks the cycle.
    let encoder: RecordEncoder

    var codingPath: [any CodingKey] { [] }

    private func store(_ value: DatabaseValue, _ key: Key) { encoder.store(value, column: key.stringValue) }
    private func integer(_ value: Int64, _ key: Key) { encoder.store(integer: value, column: key.stringValue) }

    // The standard types are stored without a `DatabaseValue` (the same conversions as their
    // conformances: a Bool is 0 or 1, a Float its Double).
    mutating func encodeNil(forKey key: Key) throws { encoder.storeNull(column: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { integer(value ? 1 : 0, key) }
    mutating func encode(_ value: String, forKey key: Key) throws { encoder.store(text: value, column: key.stringValue) }
    mutating func encode(_ value: Double, forKey key: Key) throws { encoder.store(real: value, column: key.stringValue) }
    mutating func encode(_ value: Float, forKey key: Key) throws { encoder.store(real: Double(value), column: key.stringValue) }
    mutating func encode(_ value: Int, forKey key: Key) throws { integer(Int64(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { integer(Int64(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { integer(Int64(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { integer(Int64(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { integer(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try store(ColumnEncoder.integer(value, table: encoder.table, column: key.stringValue), key)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { integer(Int64(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { integer(Int64(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { integer(Int64(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try store(ColumnEncoder.integer(value, table: encoder.table, column: key.stringValue), key)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try store(ColumnEncoder.value(of: value, table: encoder.table, column: key.stringValue), key)
    }

    // `nil` is NULL: the default `encodeIfPresent` would leave the column out, and a record's
    // columns must not depend on its values.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        try present(value, key) { try $0.encode($1, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        try present(value, key) { try $0.encode($1, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        try present(value, key) { try $0.encode($1, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        try present(value, key) { try $0.encode($1, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        try present(value, key) { try $0.encode($1, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        try present(value, key) { try $0.encode($1, forKey: key) }
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        try present(value, key) { try $0.encode($1, forKey: key) }
    }

    /// `value` through `encode` (each type's own `encode`), NULL for `nil`.
    private mutating func present<T>(_ value: T?, _ key: Key, _ encode: (inout Self, T) throws -> Void) throws {
        if let value { try encode(&self, value) } else { try encodeNil(forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        try present(value, key) { try $0.encode($1, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        try present(value, key) { try $0.encode($1, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        try present(value, key) { try $0.encode($1, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        try present(value, key) { try $0.encode($1, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        try present(value, key) { try $0.encode($1, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        try present(value, key) { try $0.encode($1, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        try present(value, key) { try $0.encode($1, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        try present(value, key) { try $0.encode($1, forKey: key) }
    }

    // MARK: - Nesting: a row's columns are flat

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let error = notNested(key.stringValue)
        encoder.fail(error)
        return KeyedEncodingContainer(RefusingKeyedContainer<NestedKey>(error: error))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let error = notNested(key.stringValue)
        encoder.fail(error)
        return RefusingUnkeyedContainer(error: error)
    }

    mutating func superEncoder() -> any Encoder { refusingEncoder("super") }

    mutating func superEncoder(forKey key: Key) -> any Encoder { refusingEncoder(key.stringValue) }

    private func refusingEncoder(_ column: String) -> any Encoder {
        let error = notNested(column)
        encoder.fail(error)
        return ColumnEncoder(refusing: error)
    }

    private func notNested(_ column: String) -> RecordError {
        .unencodable(
            table: encoder.table, column: column,
            reason: "a record's columns are flat: no nested container (a nested Encodable property is stored as its JSON text)")
    }
}
