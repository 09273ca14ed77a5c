internal import CSQLCipher
import Foundation

// MARK: - Rows copied out of the current step

extension Statement {
    /// The scratch buffer of ``rowStorage(names:)``: 1 KiB, which Swift keeps on the stack (a larger
    /// temporary allocation goes to the heap).
    static let scratchBytes = 1024

    /// The current row's values copied into one ``RowStorage`` block of its own. A row of up
    /// to 1 KiB is copied in one C loop into a scratch buffer on the stack
    /// (`csqlcipher_row_copy_into`: `sqlite3_column_value`, `sqlite3_value_type`, then
    /// `sqlite3_value_int64` / `_double` / `_text` / `_blob` / `_bytes`: one column lookup per
    /// column), then into a block of its exact size with one `memcpy`; a larger one in two C
    /// loops: each column's value, storage class and length and the texts' and blobs' total
    /// (`csqlcipher_row_shape`), then, once the block is allocated, the values themselves
    /// (`csqlcipher_row_copy`).
    package func rowStorage(names: [String]) -> RowStorage {
        let count = columnCount
        let copied: RowStorage? = withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Self.scratchBytes / 8) { scratch in
            guard let start = scratch.baseAddress else { return nil }
            let source = UnsafeMutableRawPointer(start)
            let byteCount = Int(
                csqlcipher_row_copy_into(handle, Int32(count), source.assumingMemoryBound(to: UInt8.self), Int64(scratch.count * 8)))
            guard byteCount >= 0 else { return nil }
            let (storage, target) = RowStorage.allocate(count: count, byteCount: byteCount, names: names)
            target.copyMemory(from: source, byteCount: RowStorage.bytesOffset(count: count) + byteCount)
            return storage
        }
        return copied ?? rowStorage { RowStorage.allocate(count: $0, byteCount: $1, names: names) }
    }

    /// The current row copied into `arena`'s current block in one C loop
    /// (`csqlcipher_row_copy_into`) when it fits there, else as ``rowStorage(names:)`` copies a large
    /// row, into the block the arena gives it.
    package func rowStorage(in arena: inout RowArena) -> RowStorage {
        let count = columnCount
        let handle = handle
        if let storage = arena.copy(count: count, { csqlcipher_row_copy_into(handle, Int32(count), $0, $1) }) { return storage }
        return rowStorage { arena.allocate(count: $0, byteCount: $1) }
    }

    @inline(__always)
    private func rowStorage(_ allocate: (Int, Int) -> (RowStorage, UnsafeMutableRawPointer)) -> RowStorage {
        let count = columnCount
        return withUnsafeTemporaryAllocation(of: Int64.self, capacity: Swift.max(count, 1)) { shape in
            withUnsafeTemporaryAllocation(of: OpaquePointer?.self, capacity: Swift.max(count, 1)) { values in
                guard let shapeBase = shape.baseAddress, let valueBase = values.baseAddress else { return RowStorage.make([], names: []) }
                let byteCount = Int(csqlcipher_row_shape(handle, Int32(count), shapeBase, valueBase))
                let (storage, base) = allocate(count, byteCount)
                let tags = base.assumingMemoryBound(to: UInt8.self)
                let cells = (base + RowStorage.cellsOffset(count: count)).assumingMemoryBound(to: Int64.self)
                let bytes = (base + RowStorage.bytesOffset(count: count)).assumingMemoryBound(to: UInt8.self)
                csqlcipher_row_copy(Int32(count), shapeBase, valueBase, tags, cells, bytes)
                return storage
            }
        }
    }

    // MARK: - Column names

    /// The column names (`sqlite3_column_name`), read once per statement: every ``Row`` of the
    /// statement shares one array. SQLite 3.15 re-prepares a statement silently inside
    /// `sqlite3_step` after a schema change (a `SELECT *` may then name other columns). A
    /// re-prepare compiles, which the connection's ``CompileCounter`` counts: while the count
    /// is the one the names were last checked at, they hold without a C call; after any
    /// compile on the connection they are compared with SQLite's, byte for byte, once.
    package func currentColumnNames() -> [String] {
        let compile = compiles.value
        if let names = cachedColumnNames {
            if compile == columnNamesCompile { return names }
            let equal = packedColumnNames.withUnsafeBufferPointer {
                csqlcipher_column_names_equal(handle, $0.baseAddress, Int32(names.count))
            }
            if equal != 0 {
                columnNamesCompile = compile
                return names
            }
        }
        let names = columnNames
        cachedColumnNames = names
        packedColumnNames = names.flatMap { $0.utf8CString } + [0]
        columnNamesCompile = compile
        return names
    }
}
