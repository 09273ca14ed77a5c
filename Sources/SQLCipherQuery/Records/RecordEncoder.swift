// MARK: - RecordEncoder
import SQLCipherCore

/// Encodes a record into column values: each coding key a column, each value converted by its
/// ``DatabaseValueConvertible`` conformance (a `Date` is SQLite's date text, a `UUID` its 16
/// bytes, `nil` NULL — `encodeIfPresent` writes NULL rather than leaving the column out), so
/// a record reads back through the `Decodable` row decoder (Query/RowDecoder.swift).
///
/// One encoder serves a whole batch: its buffer of values is reused row after row. With
/// ``columns`` set (a ``RecordTemplate``'s), each value lands in its column's slot, found at
/// the next position (the order a synthesized `encode(to:)` always keeps) or by name; the names
/// are not collected again. Without them (`collecting`), the first record's keys become them.
final class RecordEncoder: Encoder {
    // The state below is read and written by one thread, inside one record call, and no
    // `inout` access to it is held across a call out (to the record's `encode(to:)`), so Swift's
    // run-time exclusivity checks are off for it: they were a tenth of a batch insert's cost.

    /// The column names: given (a template's) or collected from the record.
    @exclusivity(unchecked) private(set) var columns: [String]
    /// The values, one per column, in column order.
    let values: ParameterBuffer
    /// The record being encoded's number in ``stamps``: slot `i` holds this record's value when
    /// `stamps[i] == record`.
    @exclusivity(unchecked) private var stamps: [UInt32]
    @exclusivity(unchecked) private var record: UInt32 = 0
    @exclusivity(unchecked) private var filled = 0
    @exclusivity(unchecked) private var cursor = 0
    /// Every store of this record so far was at its position, in order (``stamps`` unused).
    @exclusivity(unchecked) private var inOrder = true
    private let collecting: Bool
    /// A key the columns do not have (template mode).
    @exclusivity(unchecked) private var extraKey = false
    /// A failure a container method could not throw (``container(keyedBy:)`` cannot).
    @exclusivity(unchecked) var failure: RecordError?
    /// The keyed container last made, and its key type, kept by an encoder made `reusable` (a
    /// batch's): a record type asks for the same one for every value, and making it (a box,
    /// its generic metadata looked up) was a tenth of a batch insert's cost.
    @exclusivity(unchecked) private var keyedContainer: AnyObject?
    @exclusivity(unchecked) private var keyedContainerKey: ObjectIdentifier?
    /// The table, for the errors.
    let table: String

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// An encoder that collects the column names from the first record.
    init(table: String) {
        self.table = table
        columns = []
        values = ParameterBuffer(count: 0)
        stamps = []
        collecting = true
        reusable = false
    }

    /// Keeps its keyed container between records (``dropContainer()`` when done).
    private let reusable: Bool

    /// An encoder that fills the given columns; a `reusable` one keeps its keyed container for
    /// the next record until ``dropContainer()``.
    init(table: String, columns: [String], reusable: Bool = false) {
        self.table = table
        self.reusable = reusable
        self.columns = columns
        values = ParameterBuffer(count: columns.count)
        stamps = Array(repeating: 0, count: columns.count)
        collecting = false
    }

    /// Encodes `value`; `false` when it does not encode exactly ``columns`` (a template
    /// encoder only: a key missing or one more).
    func encode<R: Encodable>(_ value: R) throws -> Bool {
        record &+= 1
        if record == 0 {
            record = 1
            for index in stamps.indices { stamps[index] = 0 }
        }
        values.startRow()
        filled = 0
        cursor = 0
        inOrder = true
        extraKey = false
        failure = nil
        try value.encode(to: self)
        if let failure { throw failure }
        return collecting || (!extraKey && (inOrder ? cursor == columns.count : filled == columns.count))
    }

    /// Stores one column's value (converted by its ``DatabaseValueConvertible`` conformance).
    func store(_ value: DatabaseValue, column: String) {
        if let index = slot(column) { values.set(index, value) }
    }

    /// Stores a text (its bytes copied into the buffer: no `DatabaseValue`, no retain).
    func store(text: String, column: String) {
        if let index = slot(column) { values.setText(index, text) }
    }

    func store(integer: Int64, column: String) {
        if let index = slot(column) { values.setInteger(index, integer) }
    }

    func store(real: Double, column: String) {
        if let index = slot(column) { values.setReal(index, real) }
    }

    func storeNull(column: String) {
        if let index = slot(column) { values.setNull(index) }
    }

    /// The slot of `column`'s value: the next position when that is its column (every store of
    /// a synthesized `encode(to:)` on a template's columns: no bookkeeping), else by name;
    /// `nil` for a column a template does not have.
    @inline(__always)
    private func slot(_ column: String) -> Int? {
        let position = cursor
        cursor += 1
        if inOrder, position < columns.count, columns[position] == column { return position }
        return slot(column, outOfOrderAt: position)
    }

    /// A store that is not at the next position (or collects a new column): from now on
    /// ``stamps`` say which columns this record has filled.
    @inline(never)
    private func slot(_ column: String, outOfOrderAt position: Int) -> Int? {
        if inOrder {
            inOrder = false
            filled = Swift.min(position, columns.count)
            for index in 0..<filled { stamps[index] = record }
        }
        if let index = columns.firstIndex(of: column) {
            if stamps[index] != record {
                stamps[index] = record
                filled += 1
            }
            return index
        } else if collecting {
            columns.append(column)
            stamps.append(record)
            filled += 1
            return values.appendNull()
        } else {
            extraKey = true
            return nil
        }
    }

    /// Records the first failure of a container method that cannot throw.
    func fail(_ error: RecordError) {
        if failure == nil { failure = error }
    }

    // MARK: - Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if let keyedContainer, keyedContainerKey == ObjectIdentifier(type) {
            // A `KeyedEncodingContainer` is one reference to its box, made below for this `Key`.
            return unsafeBitCast(keyedContainer, to: KeyedEncodingContainer<Key>.self)
        }
        let container = KeyedEncodingContainer(RecordContainer<Key>(encoder: self))
        if reusable {
            keyedContainer = unsafeBitCast(container, to: AnyObject.self)
            keyedContainerKey = ObjectIdentifier(type)
        }
        return container
    }

    /// `true` for an encoder that keeps its keyed container between records.
    var isReusable: Bool { reusable }

    /// Sets every value to NULL, so that a kept encoder holds no record's values.
    func dropValues() { values.clear() }

    /// Drops the kept keyed container (which refers back to this encoder).
    func dropContainer() {
        keyedContainer = nil
        keyedContainerKey = nil
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        fail(Self.notKeyed(table))
        return RefusingUnkeyedContainer(error: Self.notKeyed(table))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        fail(Self.notKeyed(table))
        return ColumnEncoder(refusing: Self.notKeyed(table))
    }

    private static func notKeyed(_ table: String) -> RecordError {
        .unencodable(
            table: table, column: "(the record itself)",
            reason: "a record encodes a keyed container, one key per column; this type encodes a single value or an array")
    }
}

// A RecordEncoder lives inside one record call on one thread.
@available(*, unavailable)
extension RecordEncoder: Sendable {}
