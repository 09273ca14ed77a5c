// MARK: - RowBlockPool

/// The full-size blocks (``RowArena/blockLimit``) of a connection's earlier `fetchAll`s, reused
/// once no row holds them any more.
///
/// Without it, the rows of a large `fetchAll` are freed when the caller drops them, glibc gives
/// the top of its heap back to the kernel (`M_TRIM_THRESHOLD`, 128 KiB), and the next
/// `fetchAll` faults the same amount in again: over twenty times the page faults of the same reads
/// through a cursor (BENCHMARKS.md). The pool keeps a reference to each block it made, up
/// to ``byteLimit`` a connection, until the connection closes; a block is handed out again only
/// while the pool's reference is its only one (`isKnownUniquelyReferenced`): every row in it is
/// gone, on whatever thread, and none can come back.
///
/// It is used only inside a `fetchAll`, on the thread that holds the connection.
package final class RowBlockPool {
    /// The most block memory a connection keeps for reuse (32 MiB: 2,048 blocks, the rows of a
    /// `fetchAll` of about 150k rows of 200 bytes).
    static let byteLimit = 32 * 1024 * 1024

    private var blocks: [RowStorage.Buffer] = []
    /// Where the next ``take(names:)`` looks: blocks before it were handed out (or held by
    /// rows) during the current `fetchAll`.
    private var next = 0

    /// The blocks kept, for the tests.
    package var count: Int { blocks.count }

    /// A new `fetchAll` starts: every kept block may be free again.
    func rewind() { next = 0 }

    /// A kept full-size block that no row holds, with `names` as its header, or a new one
    /// (kept while the pool is under its limit).
    func take(names: [String]) -> RowStorage.Buffer {
        while next < blocks.count {
            defer { next += 1 }
            if isKnownUniquelyReferenced(&blocks[next]) {
                blocks[next].header = names
                return blocks[next]
            }
        }
        let created = RowStorage.Buffer.create(minimumCapacity: RowArena.blockLimit / 8) { _ in names }
        let block = unsafeDowncast(created, to: RowStorage.Buffer.self)
        if (blocks.count + 1) * RowArena.blockLimit <= Self.byteLimit {
            blocks.append(block)
            next = blocks.count
        }
        return block
    }

    /// Lets go of every kept block (the connection closes); rows still in them keep them alive.
    func drain() {
        blocks = []
        next = 0
    }
}

// A pool belongs to one connection, used by one thread at a time.
@available(*, unavailable)
extension RowBlockPool: Sendable {}
