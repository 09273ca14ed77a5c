// MARK: - RowArena

/// Shared blocks for the rows of one `fetchAll`: each row's tags, cells and bytes (a
/// ``RowStorage``) are written side by side into the current block, so a query of many rows
/// costs one heap block (and one `malloc`, one object header) per many rows instead of one
/// per row.
///
/// A ``Row`` keeps its whole block alive, so a block never exceeds ``blockLimit``: a single
/// kept row pins at most that much beside its own bytes. Blocks grow from the first row's
/// size, each as large as all the rows before it, up to the limit (a query of a few rows
/// takes little more than they need); a row larger than a quarter of the limit gets a block
/// of its own.
///
/// Rows are handed out while later rows are still written into the free end of their block:
/// the arena lives only inside one `fetchAll`, on its thread, and the rows leave it only
/// when it returns, so no other thread reads a block while it is written.
package struct RowArena {
    /// The largest block, in bytes (16 KiB: about 80 rows of 200 bytes).
    static let blockLimit = 16 * 1024

    /// The rows' column names, in every block's header.
    let names: [String]
    /// Where full-size blocks come from (the connection's, reused across `fetchAll`s), or `nil`.
    private let pool: RowBlockPool?

    private var buffer: RowStorage.Buffer?
    private var base: UnsafeMutableRawPointer?
    /// Bytes used and available in the current block.
    private var used = 0
    private var capacity = 0
    /// Bytes written into every block so far (the next block's size, up to the limit).
    private var total = 0

    package init(names: [String], pool: RowBlockPool? = nil) {
        self.names = names
        self.pool = pool
        pool?.rewind()
    }

    /// A storage for `count` columns and `byteCount` bytes in the current block (or a new
    /// one), and where to write it, once.
    mutating func allocate(count: Int, byteCount: Int) -> (RowStorage, UnsafeMutableRawPointer) {
        RowStorage.checkSize(byteCount)
        let size = RowStorage.size(count: count, byteCount: byteCount)
        guard size <= Self.blockLimit / 4 else { return RowStorage.allocate(count: count, byteCount: byteCount, names: names) }
        if used + size > capacity || buffer == nil { startBlock(atLeast: size) }
        guard let buffer, let base else { return RowStorage.allocate(count: count, byteCount: byteCount, names: names) }
        let storage = RowStorage(buffer: buffer, offset: Int32(used), columns: Int32(truncatingIfNeeded: count))
        let start = base + used
        used += size
        total += size
        return (storage, start)
    }

    /// A row of `count` columns written by `write` straight into the current block's free
    /// end (`write` gets where and how many bytes it may use, and returns the length of the
    /// row's texts and blobs, or -1 when the row does not fit), or `nil` when there is no
    /// block yet or the row does not fit: then ``allocate(count:byteCount:)`` sizes one.
    mutating func copy(count: Int, _ write: (UnsafeMutablePointer<UInt8>, Int64) -> Int64) -> RowStorage? {
        guard let buffer, let base else { return nil }
        // A row larger than a quarter of the limit never shares a block.
        let room = Swift.min(capacity - used, Self.blockLimit / 4)
        let byteCount = Int(write((base + used).assumingMemoryBound(to: UInt8.self), Int64(room)))
        guard byteCount >= 0 else { return nil }
        let size = RowStorage.size(count: count, byteCount: byteCount)
        let storage = RowStorage(buffer: buffer, offset: Int32(used), columns: Int32(truncatingIfNeeded: count))
        used += size
        total += size
        return storage
    }

    private mutating func startBlock(atLeast size: Int) {
        let bytes = Swift.min(Self.blockLimit, Swift.max(size, total))
        let block: RowStorage.Buffer
        if bytes == Self.blockLimit, let pool {
            block = pool.take(names: names)
        } else {
            let names = names
            block = unsafeDowncast(RowStorage.Buffer.create(minimumCapacity: bytes / 8) { _ in names }, to: RowStorage.Buffer.self)
        }
        buffer = block
        base = block.withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0) }
        used = 0
        // ManagedBuffer may give more than asked; use only what was asked for.
        capacity = bytes
    }
}

// An arena writes blocks that rows it handed out share: it stays on one thread.
@available(*, unavailable)
extension RowArena: Sendable {}
