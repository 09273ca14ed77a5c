internal import CSQLCipher
import Foundation

// MARK: - ParameterBuffer

/// A statement's parameter values, filled one by one and bound together: numbers in place,
/// texts and blobs copied into one byte arena that the statement reads without a copy of its
/// own (`SQLITE_STATIC`).
///
/// The record writes (Records/) fill one buffer row after row. As `[DatabaseValue]` each text
/// was retained into the buffer, released when overwritten, and retained again to be lent in a
/// closure per text (a recursion per row): a tenth of a batch insert's instructions. Copying a
/// text's bytes costs less than those, and the arena is reused, so a row allocates nothing.
///
/// The statement may name arena bytes after ``bind(to:order:)`` until it is rebound; no step
/// reads them before that (every run binds every parameter first), so the arena may grow or be
/// refilled in between. One thread uses a buffer at a time.
package final class ParameterBuffer {
    private enum Kind: UInt8 {
        case null, integer, real, text, blob
    }

    /// A number's bits, or a text's or blob's offset in the arena and length.
    private struct Slot {
        var kind: Kind
        var bits: Int64
        var length: Int
    }

    // One thread, no `inout` held across a call out: the run-time exclusivity checks are off.
    @exclusivity(unchecked) private var slots: [Slot]
    @exclusivity(unchecked) private var arena: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var used = 0

    /// `count` NULLs.
    package init(count: Int) {
        slots = Array(repeating: Slot(kind: .null, bits: 0, length: 0), count: count)
        capacity = 256
        arena = .allocate(byteCount: capacity, alignment: 8)
    }

    /// The values of `values`, in order.
    package convenience init(_ values: [DatabaseValue]) {
        self.init(count: values.count)
        for (index, value) in values.enumerated() { set(index, value) }
    }

    deinit {
        clear()
        arena.deallocate()
    }

    /// How many values.
    package var count: Int { slots.count }

    /// Adds a NULL at the end; returns its index.
    package func appendNull() -> Int {
        slots.append(Slot(kind: .null, bits: 0, length: 0))
        return slots.count - 1
    }

    /// Forgets the texts and blobs (their bytes zeroed) and makes every value NULL: a kept
    /// buffer holds no row's values.
    package func clear() {
        memset(arena, 0, used)
        used = 0
        for index in slots.indices { slots[index] = Slot(kind: .null, bits: 0, length: 0) }
    }

    /// Starts a new row: the arena is reused. The slots keep the last row's values until set.
    package func startRow() { used = 0 }

    package func setNull(_ index: Int) { slots[index] = Slot(kind: .null, bits: 0, length: 0) }
    package func setInteger(_ index: Int, _ value: Int64) { slots[index] = Slot(kind: .integer, bits: value, length: 0) }
    package func setReal(_ index: Int, _ value: Double) {
        slots[index] = Slot(kind: .real, bits: Int64(bitPattern: value.bitPattern), length: 0)
    }

    /// Copies `text`'s UTF-8 into the arena.
    package func setText(_ index: Int, _ text: String) {
        slots[index] =
            text.utf8.withContiguousStorageIfAvailable { store(.text, UnsafeRawBufferPointer($0)) }
            ?? Array(text.utf8).withUnsafeBytes { store(.text, $0) }
    }

    /// Copies `data`'s bytes into the arena.
    func setBlob(_ index: Int, _ data: Data) {
        slots[index] = data.withUnsafeBytes { store(.blob, $0) }
    }

    package func set(_ index: Int, _ value: DatabaseValue) {
        switch value {
        case .null: setNull(index)
        case .integer(let int): setInteger(index, int)
        case .real(let double): setReal(index, double)
        case .text(let text): setText(index, text)
        case .blob(let data): setBlob(index, data)
        }
    }

    /// `true` when value `index` is NULL.
    package func isNull(_ index: Int) -> Bool { slots[index].kind == .null }

    /// Value `index` as a ``DatabaseValue``.
    package subscript(index: Int) -> DatabaseValue {
        let slot = slots[index]
        let bytes = UnsafeRawBufferPointer(start: arena + Int(slot.bits), count: slot.length)
        switch slot.kind {
        case .null: return .null
        case .integer: return .integer(slot.bits)
        case .real: return .real(Double(bitPattern: UInt64(bitPattern: slot.bits)))
        case .text: return .text(String(decoding: bytes, as: UTF8.self))
        case .blob: return .blob(Data(bytes))
        }
    }

    /// Binds value `order[i]` (or `i` without an order) at parameter `i + 1`, for each of
    /// `order`'s (or the buffer's) positions.
    package func bind(to statement: Statement, order: [Int]?) throws {
        let handle = statement.handle
        let count = order?.count ?? slots.count
        try slots.withUnsafeBufferPointer { slots in
            for position in 0..<count {
                let slot = slots[order?[position] ?? position]
                let index = Int32(position + 1)
                let rc: Int32
                switch slot.kind {
                case .null: rc = sqlite3_bind_null(handle, index)
                case .integer: rc = sqlite3_bind_int64(handle, index, slot.bits)
                case .real: rc = sqlite3_bind_double(handle, index, Double(bitPattern: UInt64(bitPattern: slot.bits)))
                case .text: rc = csqlcipher_bind_text_nocopy(handle, index, arena + Int(slot.bits), Int32(slot.length))
                case .blob: rc = csqlcipher_bind_blob_nocopy(handle, index, arena + Int(slot.bits), Int32(slot.length))
                }
                try statement.check(bindResult: rc)
            }
        }
    }

    /// Appends `bytes` to the arena (grown as needed); returns the slot that names them.
    private func store(_ kind: Kind, _ bytes: UnsafeRawBufferPointer) -> Slot {
        let offset = used
        if used + bytes.count > capacity { grow(to: used + bytes.count) }
        if let base = bytes.baseAddress { (arena + offset).copyMemory(from: base, byteCount: bytes.count) }
        used += bytes.count
        return Slot(kind: kind, bits: Int64(offset), length: bytes.count)
    }

    private func grow(to needed: Int) {
        let larger = Swift.max(capacity * 2, needed)
        let new = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 8)
        new.copyMemory(from: arena, byteCount: used)
        memset(arena, 0, used)
        arena.deallocate()
        arena = new
        capacity = larger
    }
}

// One thread at a time: the record call that fills it.
@available(*, unavailable)
extension ParameterBuffer: Sendable {}
