import Foundation
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

@Suite("Key slots: a planted slot file costs bounded work, never blocks, and debris does not lock out")
struct KeySlotPlantedFileTests {
    /// The database's slot file with `count` copies of its first slot appended (new ids) at `cost`,
    /// checksum recomputed: what someone with write access to the directory can plant.
    private func planted(_ dir: TemporaryDirectory, copies count: Int, cost: Argon2Parameters) throws -> Data {
        var file = try KeySlotFile.decode(Fixture.bytes(dir.slotFile()), path: "current")
        let model = file.slots[0]
        for _ in 0..<count {
            var slot = model
            file.lastSlotID += 1
            slot.id = file.lastSlotID
            slot.opsLimit = cost.opsLimit
            slot.memoryKiB = cost.memoryKiB
            file.slots.append(slot)
        }
        file.checksum = file.checksumValue
        return try file.encoded()
    }

    @Test("1,200 slots at the maximum cost are refused before any Argon2id run (the file is under the size cap)")
    func workBudget() throws {
        let dir = TemporaryDirectory()
        try dir.createdKeySlotManager().close()
        let database = Fixture.bytes(dir.file())
        let original = Fixture.bytes(dir.slotFile())
        let huge = try planted(dir, copies: 1_200, cost: .maximum)
        #expect(huge.count < KeySlotStore.maximumFileSize)
        let twoAtMaximum = try planted(dir, copies: 2, cost: .maximum)
        for (name, content) in [("1,200 slots", huge), ("3 slots, 2 at the maximum", twoAtMaximum)] {
            #expect(throws: KeySlotError.self, "\(name)") { try KeySlotFile.decode(content, path: "planted") }
            try content.write(to: dir.slotFile())
            // A wrong password would try every slot: refused before the first derivation.
            let outcome = Deadline.run(seconds: 60) { itemCount(in: dir, password: "wrong") }
            #expect(outcome == "slotFileDamaged", "\(name)")
            #expect(Fixture.bytes(dir.file()) == database)
        }
        try original.write(to: dir.slotFile())
        #expect(itemCount(in: dir, password: "secret") == "3")
    }

    @Test("a slot is not added past 64 slots; the file stays as it was")
    func slotCountLimit() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager()
        for index in 1..<KeySlotFile.maximumSlots { try manager.keySlots.add(rawKey: Data(repeating: UInt8(index), count: 32)) }
        let full = Fixture.bytes(dir.slotFile())
        #expect(thrownKeySlotCase { try manager.keySlots.add(password: "one too many") } == "slotLimitReached")
        #expect(Fixture.bytes(dir.slotFile()) == full)
        manager.close()
        #expect(itemCount(in: dir, password: "secret") == "3")
    }

    @Test("a slot file that is a FIFO, /dev/zero or a directory is a typed error naming it, without blocking")
    func notARegularFile() throws {
        let dir = TemporaryDirectory()
        try dir.createdKeySlotManager().close()
        let original = Fixture.bytes(dir.slotFile())
        let path = dir.slotFile().path
        let plants: [(String, String, () throws -> Void)] = [
            ("FIFO", "pipe", { _ = try runProcess(URL(fileURLWithPath: "/usr/bin/mkfifo"), [path]) }),
            ("/dev/zero", "device", { try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero") }),
            ("directory", "directory", { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) }),
        ]
        for (name, word, plant) in plants {
            try FileManager.default.removeItem(atPath: path)
            try plant()
            let message = Deadline.run(seconds: 20) { () -> String in
                let manager = dir.keySlotManager()
                return thrownError { try manager.open(password: "secret") }.map { "\($0)" } ?? "opened"
            }
            #expect(message?.contains(word) == true && message?.contains("not a regular file") == true, "\(name): \(message ?? "blocked")")
            let listing = Deadline.run(seconds: 20) { thrownKeySlotCase { _ = try dir.keySlotManager().keySlots.list() } }
            #expect(listing == "slotFileNotAFile", "\(name)")
        }
        try FileManager.default.removeItem(atPath: path)
        try original.write(to: dir.slotFile())
        #expect(itemCount(in: dir, password: "secret") == "3")
    }

    @Test("a garbage .scm-keys.next does not block opening or changing; it is removed once the slot file opens")
    func debrisNext() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager()
        manager.close()
        let next = URL(fileURLWithPath: dir.slotFile().path + ".next")
        for garbage in [Data("garbage".utf8), Data(repeating: 0, count: 4096), Data()] {
            try garbage.write(to: next)
            #expect(itemCount(in: dir, password: "wrong") == "incorrectPasswordOrSettings")
            #expect(FileManager.default.fileExists(atPath: next.path), "a wrong password removes nothing")
            #expect(itemCount(in: dir, password: "secret") == "3")
            #expect(!FileManager.default.fileExists(atPath: next.path))
        }
        // Planted while the database is open: slot changes go on.
        try manager.open(password: "secret")
        try Data("garbage".utf8).write(to: next)
        try manager.keySlots.add(password: "second")
        #expect(!FileManager.default.fileExists(atPath: next.path))
        try Data("garbage".utf8).write(to: next)
        try manager.keySlots.change(password: "second", to: "third")
        manager.close()
        try Data("garbage".utf8).write(to: next)
        try manager.keySlots.change(password: "third", to: "fourth")
        #expect(itemCount(in: dir, password: "fourth") == "3")
    }

    @Test("a garbage .next with no slot file beside it is the only copy: kept, and named as damaged")
    func debrisNextOnlyCopy() throws {
        let dir = TemporaryDirectory()
        try dir.createdKeySlotManager().close()
        let next = URL(fileURLWithPath: dir.slotFile().path + ".next")
        try Data("garbage".utf8).write(to: next)
        try FileManager.default.removeItem(at: dir.slotFile())
        #expect(itemCount(in: dir, password: "secret") == "slotFileDamaged")
        #expect(Fixture.bytes(next) == Data("garbage".utf8))
    }
}
