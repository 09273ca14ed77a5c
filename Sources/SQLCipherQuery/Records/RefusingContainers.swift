// MARK: - Refusing containers

// What `Encoder.container(keyedBy:)` and `unkeyedContainer()` return where a column has no such
// container: they cannot throw, so the containers they return throw at the first write (a
// column encoder then switches to JSON; a record reports the error).

/// A keyed container whose every write throws `error`.
struct RefusingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let error: any Error

    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { throw error }
    mutating func encode(_ value: Bool, forKey key: Key) throws { throw error }
    mutating func encode(_ value: String, forKey key: Key) throws { throw error }
    mutating func encode(_ value: Double, forKey key: Key) throws { throw error }
    mutating func encode(_ value: Float, forKey key: Key) throws { throw error }
    mutating func encode(_ value: Int, forKey key: Key) throws { throw error }
    mutating func encode(_ value: Int8, forKey key: Key) throws { throw error }
    mutating func encode(_ value: Int16, forKey key: Key) throws { throw error }
    mutating func encode(_ value: Int32, forKey key: Key) throws { throw error }
    mutating func encode(_ value: Int64, forKey key: Key) throws { throw error }
    mutating func encode(_ value: UInt, forKey key: Key) throws { throw error }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { throw error }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { throw error }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { throw error }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { throw error }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw error }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(RefusingKeyedContainer<NestedKey>(error: error))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        RefusingUnkeyedContainer(error: error)
    }

    mutating func superEncoder() -> any Encoder { ColumnEncoder(refusing: error) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ColumnEncoder(refusing: error) }
}

/// An unkeyed container whose every write throws `error`.
struct RefusingUnkeyedContainer: UnkeyedEncodingContainer {
    let error: any Error

    var codingPath: [any CodingKey] { [] }
    package var count: Int { 0 }

    mutating func encodeNil() throws { throw error }
    mutating func encode(_ value: Bool) throws { throw error }
    mutating func encode(_ value: String) throws { throw error }
    mutating func encode(_ value: Double) throws { throw error }
    mutating func encode(_ value: Float) throws { throw error }
    mutating func encode(_ value: Int) throws { throw error }
    mutating func encode(_ value: Int8) throws { throw error }
    mutating func encode(_ value: Int16) throws { throw error }
    mutating func encode(_ value: Int32) throws { throw error }
    mutating func encode(_ value: Int64) throws { throw error }
    mutating func encode(_ value: UInt) throws { throw error }
    mutating func encode(_ value: UInt8) throws { throw error }
    mutating func encode(_ value: UInt16) throws { throw error }
    mutating func encode(_ value: UInt32) throws { throw error }
    mutating func encode(_ value: UInt64) throws { throw error }
    mutating func encode<T: Encodable>(_ value: T) throws { throw error }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(RefusingKeyedContainer<NestedKey>(error: error))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { RefusingUnkeyedContainer(error: error) }

    mutating func superEncoder() -> any Encoder { ColumnEncoder(refusing: error) }
}
