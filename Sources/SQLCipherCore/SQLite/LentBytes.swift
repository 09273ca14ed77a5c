import Foundation

// MARK: - LentBytes

/// The statement's own copies of the texts and blobs bound through a ``DatabaseValueBinder``
/// (a parameter pack, an `arguments:` array or dictionary), which SQLite reads in place
/// (`SQLITE_STATIC`).
///
/// Such a value binds itself through `bind(to:)` and is gone when that returns, so SQLite would
/// copy its bytes into memory of its own (`SQLITE_TRANSIENT`): a malloc and a free per text or
/// blob, most of what binding them costs. A copy into a block the statement reuses costs a
/// `memcpy`. A block is never moved or freed while its bytes may be bound: a pass that outgrows
/// it starts a larger one and keeps the old until the next pass starts, when every parameter is
/// bound again before the statement steps (as for the borrowed binds, Statement+Borrowed.swift).
/// The blocks are zeroed when reused and freed with the statement, after its finalize.
final class LentBytes {
    // One thread, no `inout` held across a call out: the run-time exclusivity checks are off.
    @exclusivity(unchecked) private var block: UnsafeMutableRawPointer?
    @exclusivity(unchecked) private var capacity = 0
    @exclusivity(unchecked) private var used = 0
    @exclusivity(unchecked) private var retired: [(block: UnsafeMutableRawPointer, used: Int)] = []

    init() {}

    deinit {
        startPass()
        block?.deallocate()
    }

    /// Starts a binding pass: the bytes of the last one are zeroed and their space reused.
    func startPass() {
        if let block, used > 0 { memset(block, 0, used) }
        used = 0
        guard !retired.isEmpty else { return }
        for old in retired {
            memset(old.block, 0, old.used)
            old.block.deallocate()
        }
        retired.removeAll(keepingCapacity: true)
    }

    /// A copy of `bytes` that stays where it is until the next pass; a non-NULL pointer even for
    /// no bytes (SQLite binds NULL for a NULL pointer).
    func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return UnsafeRawPointer(bitPattern: 1)! }
        if bytes.count > capacity - used { grow(to: bytes.count) }
        let target = block.unsafelyUnwrapped + used
        target.copyMemory(from: source, byteCount: bytes.count)
        used += bytes.count
        return UnsafeRawPointer(target)
    }

    /// A new block of at least `needed` bytes; the full one is kept until the next pass.
    private func grow(to needed: Int) {
        if let block { retired.append((block, used)) }
        capacity = Swift.max(256, capacity * 2, needed)
        block = .allocate(byteCount: capacity, alignment: 8)
        used = 0
    }
}

// One thread at a time: the statement's.
@available(*, unavailable)
extension LentBytes: Sendable {}
