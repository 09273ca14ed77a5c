import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// ``ExclusiveAccess``: a copy replaces a file only while nobody else has it open.
@Suite("Exclusive access for a replace", .ownThread)
struct ExclusiveAccessTests {
    /// A plain SQLite connection of this process that the manager does not know, idle between
    /// transactions (rollback journal: it holds no lock; WAL: a shared lock): refused, the file
    /// stays plaintext and the connection keeps working on it. (The old code replaced the file
    /// under the rollback-journal connection, which then went on with the old, unlinked file.)
    @Test("another connection of this process has the file open: busy, nothing changed", arguments: [false, true])
    func connectionOfThisProcess(wal: Bool) throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makePlaintext(at: dir.file(), rows: 50)
        let open = try Connection(path: dir.file().path, mode: .readWrite)
        defer { open.close() }
        if wal { try open.executeScript("PRAGMA journal_mode = WAL") }
        try open.executeScript("SELECT count(*) FROM tag")
        let before = Fixture.bytes(dir.file())
        var configuration = DatabaseConfiguration(cipher: .fast(kdfIterations: 4000))
        configuration.busyTimeout = .milliseconds(200)

        #expect(
            thrownCase { try DatabaseTools.encryptPlaintextDatabase(at: dir.file(), password: "new-secret", configuration: configuration) }
                == "busy")
        #expect(Fixture.bytes(dir.file()) == before)
        #expect(FileSnapshot(dir.url).leftovers == [])
        try open.executeScript("INSERT INTO tag(name, weight) VALUES ('after', 1)")
    }

    @Test("the other processes with a file open are found with their name; this process is not listed")
    func otherProcessesAreFound() throws {
        let dir = TemporaryDirectory()
        try Data("x".utf8).write(to: dir.file("held"))
        let identity = try #require(FileSystem.identity(of: dir.file("held").path))
        // Close-on-exec, as every descriptor of the library: a child another test starts
        // meanwhile must not inherit it (FileHandle's lacks the flag; CI once named a
        // FaultInjectionHelper as the opener).
        let mine = try POSIX.open(dir.file("held").path, .readOnly)
        defer { POSIX.close(mine) }
        #expect(FileSystem.otherProcesses(withOpen: [identity]) == [])
        let holder = try FileHolder(dir.file("held"))
        defer { holder.stop() }
        #expect(FileSystem.otherProcesses(withOpen: [identity]) == [OpenerProcess(processID: holder.processID, name: "sleep")])
        #expect(FileSystem.descriptorsOfThisProcess(on: identity) == 1)
    }

    /// A child this process is starting holds a copy of every descriptor of this process until
    /// its `exec` closes the close-on-exec ones: it is not another program with the file open.
    /// (In CI a KeyringProbe being started by another test was named as the opener.)
    @Test("a child being started by this process is not taken for another program")
    func childBeingStartedIsNotAnOpener() throws {
        let dir = TemporaryDirectory()
        try Data("x".utf8).write(to: dir.file("held"))
        let identity = try #require(FileSystem.identity(of: dir.file("held").path))
        let fd = try POSIX.open(dir.file("held").path, .readOnly)
        defer { POSIX.close(fd) }
        let stop = Locked(false)
        let spawner = Thread {
            while !stop.value {
                let child = ChildProcess()
                child.executableURL = URL(fileURLWithPath: "/bin/true")
                try? child.run()
                child.waitUntilExit()
            }
        }
        spawner.start()
        defer { stop.value = true }
        var seen: [OpenerProcess] = []
        let deadline = Date(timeIntervalSinceNow: 3)
        while Date() < deadline { seen += FileSystem.otherProcesses(withOpen: [identity]) }
        #expect(seen == [])
    }

    /// The same for the children another program starts while it has the file open (CI named a
    /// `cipherdb` that a test runner was starting): that program is the one opener. Each child
    /// here waits 0.3 s between its fork and its exec.
    @Test("a child another program is starting is not taken for a second opener")
    func childOfAnotherProgram() throws {
        let dir = TemporaryDirectory()
        try Data("x".utf8).write(to: dir.file("held"))
        let identity = try #require(FileSystem.identity(of: dir.file("held").path))
        let script = """
            import os, sys, time
            f = open(sys.argv[1])
            print("ready", flush=True)
            for _ in range(5):
                child = os.fork()
                if child == 0:
                    time.sleep(0.3)
                    os.execv("/bin/true", ["true"])
                os.waitpid(child, 0)
            """
        let holder = ChildProcess()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", script, dir.file("held").path]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        defer { holder.waitUntilExit() }
        _ = output.fileHandleForReading.availableData
        var seen: Set<Int> = []
        while holder.isRunning { seen.formUnion(FileSystem.otherProcesses(withOpen: [identity]).map(\.processID)) }
        #expect(seen == [Int(holder.processIdentifier)])
    }
}
