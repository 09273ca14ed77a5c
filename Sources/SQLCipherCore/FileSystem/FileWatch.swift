import Foundation

// MARK: - FileWatch

/// Waits for a change to a database file or its sidecars (`-wal`, `-journal`), as another
/// connection's or process's commit makes one: inotify on the file's directory on Linux (its
/// events filtered by name), a dispatch source on each file on Apple platforms. One thread
/// calls ``wait(timeout:)``; any thread may call ``wake()``; the waiting thread calls
/// ``close()`` when done.
package final class FileWatch: @unchecked Sendable {
    // @unchecked: the descriptors are set in `init` and closed once by `close()` on the
    // waiting thread; the pipe's write end, which other threads write to, is a `WakeEnd`.
    private let wakeRead: Int32
    private let wakeWrite: WakeEnd
    /// The watched names as UTF-8, compared with each event's name without making a String.
    private let names: [[UInt8]]
    #if os(Linux)
        private let inotify: Int32
    #else
        private let sources: [any DispatchSourceFileSystemObject]
    #endif

    /// Watches `path` and its `-wal` and `-journal`.
    package init(path: String) throws(Errno) {
        let url = URL(fileURLWithPath: path)
        names = ["", "-wal", "-journal"].map { Array((url.lastPathComponent + $0).utf8) }
        let pipe = try POSIX.makePipe()
        (wakeRead, wakeWrite) = (pipe.0, WakeEnd(pipe.1))
        #if os(Linux)
            do {
                inotify = try POSIX.inotifyInit()
            } catch {
                POSIX.close(wakeRead)
                wakeWrite.close()
                throw error
            }
            do {
                try POSIX.inotifyWatchDirectory(inotify, url.deletingLastPathComponent().path)
            } catch {
                POSIX.close(inotify)
                POSIX.close(wakeRead)
                wakeWrite.close()
                throw error
            }
        #else
            let wake = wakeWrite
            sources = [path, path + "-wal", path + "-journal", url.deletingLastPathComponent().path].compactMap { file in
                guard let fd = try? POSIX.open(file, .eventsOnly) else { return nil }
                let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: fd, eventMask: [.write, .extend, .delete, .rename])
                source.setEventHandler { wake.write() }
                source.setCancelHandler { POSIX.close(fd) }
                source.resume()
                return source
            }
        #endif
    }

    /// Waits at most `timeout` seconds for a change (or a ``wake()``); `true` when one came.
    /// Every event already queued is read, so a burst of writes gives one wake-up.
    @discardableResult
    package func wait(timeout: Double) -> Bool {
        #if os(Linux)
            let ready = POSIX.waitReadable([inotify, wakeRead], timeout: timeout)
            drain(wakeRead)
            return ready[0] ? drainEvents() : ready[1]
        #else
            let ready = POSIX.waitReadable([wakeRead], timeout: timeout)
            drain(wakeRead)
            return ready[0]
        #endif
    }

    /// Makes the current or next ``wait(timeout:)`` return at once.
    package func wake() { wakeWrite.write() }

    /// Closes the watch (the waiting thread, once it is done with it).
    package func close() {
        #if os(Linux)
            POSIX.close(inotify)
        #else
            for source in sources { source.cancel() }
        #endif
        wakeWrite.close()
        POSIX.close(wakeRead)
    }

    private func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64)
        while (try? buffer.withUnsafeMutableBytes({ (bytes) throws(Errno) in try POSIX.read(fd, into: bytes) })) ?? 0 > 0 {}
    }

    #if os(Linux)
        /// Reads the queued inotify events (`struct inotify_event`: wd, mask, cookie, len, then
        /// `len` bytes of NUL-padded name); `true` when one names a watched file.
        private func drainEvents() -> Bool {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var matched = false
            while true {
                let count = (try? buffer.withUnsafeMutableBytes({ (bytes) throws(Errno) in try POSIX.read(inotify, into: bytes) })) ?? 0
                guard count > 0 else { return matched }
                var offset = 0
                // Once one event matched, the rest of the queue is only read, not parsed.
                while !matched, offset + 16 <= count {
                    let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) }
                    let name = buffer[(offset + 16)..<min(offset + 16 + length, count)].prefix { $0 != 0 }
                    matched = names.contains { $0.elementsEqual(name) }
                    offset += 16 + length
                }
            }
        }
    #endif
}

/// The write end of a ``FileWatch``'s wake-up pipe: written by any thread (``FileWatch/wake()``,
/// a dispatch source's handler), closed once by the waiting thread, never both at once, so a
/// late wake never writes to a descriptor number closed and reused since (by then maybe a
/// database file's, whose first byte it would overwrite).
private final class WakeEnd: @unchecked Sendable {
    // @unchecked: `isClosed` is read and written only under `lock`; `descriptor` is immutable.
    private let lock = NSLock()
    private var isClosed = false
    private let descriptor: Int32

    init(_ descriptor: Int32) { self.descriptor = descriptor }

    package func write() {
        lock.withLock { if !isClosed { POSIX.writeByte(descriptor) } }
    }

    package func close() {
        lock.withLock {
            guard !isClosed else { return }
            isClosed = true
            POSIX.close(descriptor)
        }
    }
}
