import Foundation

// MARK: - RowStorage

/// One row's values in one allocation: a storage-class tag per column, an 8-byte cell per
/// column (the integer, the double's bits, or where a text or blob's bytes start and how many
/// there are), then the text and blob bytes one after the other. A ``Row`` of many columns
/// costs one heap block instead of an array plus one per text; the rows of one `fetchAll`
/// are packed side by side in shared blocks of at most ``RowArena/blockLimit`` bytes
/// (``RowArena``), each row at its own ``offset``.
@usableFromInline
package struct RowStorage {
    /// The storage classes, as SQLite numbers them (`SQLITE_INTEGER` … `SQLITE_NULL`).
    @usableFromInline
    enum Tag: UInt8 {
        case integer = 1
        case real, text, blob, null
    }

    /// The heap block: the tags, cells and bytes of one row, or of several side by side, and in
    /// its header the rows' column names (one array shared by every block of a query, so a
    /// ``Row`` is only this reference and its place in the block). The count and offset are
    /// kept beside the reference, so reading a value touches no class property.
    @usableFromInline
    final class Buffer: ManagedBuffer<[String], UInt64> {}

    @usableFromInline let buffer: Buffer
    /// Where this row starts in ``buffer``, in bytes (a multiple of 8; 0 for a block of its own).
    @usableFromInline let offset: Int32
    /// The number of columns.
    @usableFromInline let columns: Int32

    /// The number of columns.
    @inlinable package var count: Int { Int(columns) }

    /// Where the cells start: after the tags, rounded up to 8 bytes.
    @inlinable
    static func cellsOffset(count: Int) -> Int { (count + 7) & ~7 }
    /// Where the bytes start.
    @inlinable
    static func bytesOffset(count: Int) -> Int { cellsOffset(count: count) + 8 * count }
    /// The bytes a row of `count` columns and `byteCount` bytes of text and blobs takes,
    /// rounded up to 8.
    package static func size(count: Int, byteCount: Int) -> Int { (bytesOffset(count: count) + byteCount + 7) & ~7 }

    /// The rows' column names (the block's header).
    @usableFromInline package var columnNames: [String] { buffer.header }

    /// A storage for `count` columns and `byteCount` bytes of text and blobs, for `fill` to
    /// write once, before it is shared: it is never written after.
    package static func make(count: Int, byteCount: Int, names: [String], _ fill: (inout RowStorage.Writer) -> Void) -> RowStorage {
        let (storage, base) = allocate(count: count, byteCount: byteCount, names: names)
        var writer = Writer(base: base, count: count)
        fill(&writer)
        return storage
    }

    /// A block of its own for `count` columns and `byteCount` bytes, and where to write them
    /// (8-byte aligned), once, before the storage is shared.
    static func allocate(count: Int, byteCount: Int, names: [String]) -> (RowStorage, UnsafeMutableRawPointer) {
        checkSize(byteCount)
        let created = Buffer.create(minimumCapacity: size(count: count, byteCount: byteCount) / 8) { _ in names }
        let buffer = unsafeDowncast(created, to: Buffer.self)
        let base = buffer.withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0) }
        return (RowStorage(buffer: buffer, offset: 0, columns: Int32(truncatingIfNeeded: count)), base)
    }

    /// Offsets and lengths are 32-bit (a text or blob is at most 2 GiB in SQLite).
    static func checkSize(_ byteCount: Int) {
        precondition(byteCount <= Int(UInt32.max), "a row of more than 4 GiB of text and blobs")
    }

    /// `true` when both are the same row's bytes (one block, one offset: the rows of a
    /// ``RowArena`` share blocks).
    package func isSame(as other: RowStorage) -> Bool { buffer === other.buffer && offset == other.offset }

    /// The row's first byte (its tags) in ``buffer``, valid during `body`.
    @inlinable @inline(__always)
    func withBase<R>(_ body: (UnsafeRawPointer) -> R) -> R {
        buffer.withUnsafeMutablePointerToElements { body(UnsafeRawPointer($0) + Int(offset)) }
    }

    /// Writes the tags, cells and bytes of a new storage.
    package struct Writer {
        let base: UnsafeMutableRawPointer
        let count: Int
        private var nextByte: Int

        init(base: UnsafeMutableRawPointer, count: Int) {
            self.base = base
            self.count = count
            nextByte = 0
        }

        func set(_ index: Int, _ tag: Tag, bits: Int64) {
            base.storeBytes(of: tag.rawValue, toByteOffset: index, as: UInt8.self)
            base.storeBytes(of: bits, toByteOffset: RowStorage.cellsOffset(count: count) + 8 * index, as: Int64.self)
        }

        /// Copies `bytes` after the ones written before and records them at `index`.
        mutating func set(_ index: Int, _ tag: Tag, bytes: UnsafeRawBufferPointer) {
            if let source = bytes.baseAddress, !bytes.isEmpty {
                (base + RowStorage.bytesOffset(count: count) + nextByte).copyMemory(from: source, byteCount: bytes.count)
            }
            set(index, tag, bits: Int64(nextByte) | Int64(bytes.count) << 32)
            nextByte += bytes.count
        }
    }

    // MARK: - Reading

    /// The value at `index` (in range).
    @usableFromInline
    package func value(at index: Int) -> DatabaseValue {
        withBase { base in
            let bits = base.loadUnaligned(fromByteOffset: Self.cellsOffset(count: count) + 8 * index, as: Int64.self)
            switch Tag(rawValue: base.load(fromByteOffset: index, as: UInt8.self)) ?? .null {
            case .null: return .null
            case .integer: return .integer(bits)
            case .real: return .real(Double(bitPattern: UInt64(bitPattern: bits)))
            case .text:
                return .text(
                    String(decoding: Self.bytes(base, count: count, bits: bits).assumingMemoryBound(to: UInt8.self), as: UTF8.self))
            case .blob: return .blob(Data(Self.bytes(base, count: count, bits: bits)))
            }
        }
    }

    /// The text at `index` when the column is TEXT, else `nil` (no ``DatabaseValue`` built).
    /// Inlinable, as the other typed reads: ``Row/value(_:as:)`` reads the block in place.
    @inlinable
    package func text(at index: Int) -> String? {
        withBase { base in
            guard base.load(fromByteOffset: index, as: UInt8.self) == Tag.text.rawValue else { return nil }
            let bits = base.loadUnaligned(fromByteOffset: Self.cellsOffset(count: count) + 8 * index, as: Int64.self)
            return String(decoding: Self.bytes(base, count: count, bits: bits).assumingMemoryBound(to: UInt8.self), as: UTF8.self)
        }
    }

    /// The integer at `index` when the column is INTEGER, else `nil`.
    @inlinable
    package func int64(at index: Int) -> Int64? {
        cell(at: index, ifTagged: .integer)
    }

    /// The double at `index` when the column is REAL, else `nil`.
    @inlinable
    package func double(at index: Int) -> Double? {
        cell(at: index, ifTagged: .real).map { Double(bitPattern: UInt64(bitPattern: $0)) }
    }

    @inlinable
    func cell(at index: Int, ifTagged tag: Tag) -> Int64? {
        withBase { base in
            guard base.load(fromByteOffset: index, as: UInt8.self) == tag.rawValue else { return nil }
            return base.loadUnaligned(fromByteOffset: Self.cellsOffset(count: count) + 8 * index, as: Int64.self)
        }
    }

    @inlinable
    package static func bytes(_ base: UnsafeRawPointer, count: Int, bits: Int64) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + bytesOffset(count: count) + Int(bits & 0xFFFF_FFFF), count: Int(bits >> 32))
    }

    /// A storage holding `values`, named `names`.
    package static func make(_ values: [DatabaseValue], names: [String]) -> RowStorage {
        var byteCount = 0
        for value in values {
            switch value {
            case .text(let text): byteCount += text.utf8.count
            case .blob(let data): byteCount += data.count
            default: break
            }
        }
        return make(count: values.count, byteCount: byteCount, names: names) { (writer: inout Writer) in
            for (index, value) in values.enumerated() { writer.write(value, at: index) }
        }
    }
}

extension RowStorage.Writer {
    /// Writes one ``DatabaseValue``.
    package mutating func write(_ value: DatabaseValue, at index: Int) {
        switch value {
        case .null: set(index, .null, bits: 0)
        case .integer(let int): set(index, .integer, bits: int)
        case .real(let double): set(index, .real, bits: Int64(bitPattern: double.bitPattern))
        case .text(let text):
            var text = text
            text.withUTF8 { set(index, .text, bytes: UnsafeRawBufferPointer($0)) }
        case .blob(let data): data.withUnsafeBytes { set(index, .blob, bytes: $0) }
        }
    }
}

// A row's bytes are written once, before the row is handed to anyone (`make`, `allocate`),
// and never after; a ``RowArena`` writes later rows only into bytes of the block no row
// handed out covers, and only before its `fetchAll` returns the rows (one thread). Every
// later access only reads, so sharing rows between threads is safe.
extension RowStorage: @unchecked Sendable {}
