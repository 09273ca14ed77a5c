import Foundation
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// The file watch wakes for a write to the database file or its `-wal` (created after the
/// watch started), not for another file of the directory, and a wake-up ends a wait at once.
@Suite("FileWatch")
struct FileWatchTests {
    @Test func wakesForTheFileAndItsWAL() throws {
        let dir = TemporaryDirectory()
        let path = dir.file().path
        try Data("a".utf8).write(to: dir.file())
        let watch = try FileWatch(path: path)
        defer { watch.close() }
        #expect(watch.wait(timeout: 0.05) == false)
        try Data("unrelated".utf8).write(to: dir.file("other.txt"))
        #expect(watch.wait(timeout: 0.2) == false)
        let handle = try FileHandle(forWritingTo: dir.file())
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("b".utf8))
        try handle.close()
        #expect(watch.wait(timeout: 60) == true)
        try Data("frame".utf8).write(to: URL(fileURLWithPath: path + "-wal"))
        #expect(watch.wait(timeout: 60) == true)
    }

    @Test func wakeEndsAWait() throws {
        let dir = TemporaryDirectory()
        let watch = try FileWatch(path: dir.file().path)
        defer { watch.close() }
        watch.wake()
        let start = Date()
        #expect(watch.wait(timeout: 60) == true)
        #expect(Date().timeIntervalSince(start) < 30)
    }

    /// A wake that comes after the watch was closed (the monitor's `stop()` racing its thread's
    /// exit) writes nothing: the pipe's descriptor numbers are free by then, and a file opened
    /// meanwhile (a database's) would get its first byte overwritten.
    @Test func wakeAfterCloseWritesToNoReusedDescriptor() throws {
        let dir = TemporaryDirectory()
        let watch = try FileWatch(path: dir.file().path)
        watch.close()
        let victim = dir.file("victim")
        try Data().write(to: victim)
        // `open` gives the lowest free numbers: among these are the pipe's two.
        let descriptors = (0..<16).compactMap { _ in try? POSIX.open(victim.path, .writeOnly) }
        defer { descriptors.forEach(POSIX.close) }
        watch.wake()
        #expect(try Data(contentsOf: victim).isEmpty)
    }
}
