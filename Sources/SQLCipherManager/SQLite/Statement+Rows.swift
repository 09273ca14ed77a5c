internal import CSQLCipher
import Foundation

// MARK: - Rows copied out of the current step

extension Statement {
    /// One column of the current step as read for a ``RowStorage``: its tag and either its
    /// 8-byte value or where its bytes are (valid until the next step).
    private struct ColumnRead {
        var tag: RowStorage.Tag
        var bits: Int64
        var bytes: UnsafeRawBufferPointer
    }

    /// The current row's values copied into one ``RowStorage`` block: each column is read once
    /// (`sqlite3_column_type`, then `sqlite3_column_int64` / `_double` / `_text` / `_blob` and
    /// `_bytes`), the block is sized from the texts' and blobs' lengths, then filled.
    func rowStorage() -> RowStorage {
        let count = columnCount
        return withUnsafeTemporaryAllocation(of: ColumnRead.self, capacity: count) { reads in
            var byteCount = 0
            for index in 0..<count {
                let read = readColumn(Int32(index))
                reads.initializeElement(at: index, to: read)
                byteCount += read.bytes.count
            }
            return RowStorage.make(count: count, byteCount: byteCount) { (writer: inout RowStorage.Writer) in
                for index in 0..<count {
                    let read = reads[index]
                    switch read.tag {
                    case .text, .blob: writer.set(index, read.tag, bytes: read.bytes)
                    default: writer.set(index, read.tag, bits: read.bits)
                    }
                }
            }
        }
    }

    private func readColumn(_ index: Int32) -> ColumnRead {
        let none = UnsafeRawBufferPointer(start: nil, count: 0)
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return ColumnRead(tag: .integer, bits: sqlite3_column_int64(handle, index), bytes: none)
        case SQLITE_FLOAT:
            let bits = Int64(bitPattern: sqlite3_column_double(handle, index).bitPattern)
            return ColumnRead(tag: .real, bits: bits, bytes: none)
        case SQLITE_TEXT:
            let text = UnsafeRawPointer(sqlite3_column_text(handle, index))
            let count = text == nil ? 0 : Int(sqlite3_column_bytes(handle, index))
            return ColumnRead(tag: .text, bits: 0, bytes: UnsafeRawBufferPointer(start: text, count: count))
        case SQLITE_BLOB:
            let blob = sqlite3_column_blob(handle, index)
            let count = blob == nil ? 0 : Int(sqlite3_column_bytes(handle, index))
            return ColumnRead(tag: .blob, bits: 0, bytes: UnsafeRawBufferPointer(start: blob, count: count))
        default: return ColumnRead(tag: .null, bits: 0, bytes: none)
        }
    }

    // MARK: - Column names

    /// The column names (`sqlite3_column_name`), read once per statement and afterwards only
    /// compared with SQLite's, byte for byte, without building a `String`: every ``Row`` of the
    /// statement shares one array. SQLite 3.15 re-prepares a statement silently inside
    /// `sqlite3_step` after a schema change (a `SELECT *` may then name other columns), which
    /// the comparison sees.
    func currentColumnNames() -> [String] {
        if let names = cachedColumnNames, names.count == columnCount, namesAreCurrent(names) { return names }
        let names = columnNames
        cachedColumnNames = names
        return names
    }

    private func namesAreCurrent(_ names: [String]) -> Bool {
        for (index, name) in names.enumerated() {
            guard let current = sqlite3_column_name(handle, Int32(index)) else { return false }
            let same = name.utf8.withContiguousStorageIfAvailable { utf8 in
                guard let base = utf8.baseAddress else { return current.pointee == 0 }
                let bytes = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
                return strncmp(current, bytes, utf8.count) == 0 && current[utf8.count] == 0
            }
            guard same == true else { return false }
        }
        return true
    }
}
