import Foundation
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

@Suite("Key slots: a missing, damaged, edited or foreign slot file is a typed error; the database is untouched")
struct KeySlotFileDamageTests {
    /// A key-slot database with a second password, closed; returns the database's bytes.
    private func makeDatabase(_ dir: TemporaryDirectory) throws -> Data {
        let manager = try dir.createdKeySlotManager()
        try manager.keySlots.add(password: "second")
        manager.close()
        return Fixture.bytes(dir.file())
    }

    @Test("missing, truncated, emptied, checksum broken, slot edited, slots mixed, file from another database")
    func damagedFiles() throws {
        let dir = TemporaryDirectory()
        let database = try makeDatabase(dir)
        let original = Fixture.bytes(dir.slotFile())
        let other = TemporaryDirectory()
        _ = try makeDatabase(other)
        var json = try JSONSerialization.jsonObject(with: original) as! [String: Any]
        var slots = json["slots"] as! [[String: Any]]
        slots[1]["label"] = "renamed"
        json["slots"] = slots
        let edited = try JSONSerialization.data(withJSONObject: json)
        let resummed = try reChecksummed(edited)
        let cases: [(String, Data?, String)] = [
            ("missing", nil, "slotFileMissing"),
            ("truncated", original.prefix(original.count / 2), "slotFileDamaged"),
            ("empty", Data(), "slotFileDamaged"),
            ("huge", Data(repeating: 0x20, count: 2 << 20), "slotFileDamaged"),
            ("edited, old checksum", edited, "slotFileDamaged"),
            ("edited, checksum recomputed", resummed, "slotFileTampered"),
            ("another database's", Fixture.bytes(other.slotFile()), "slotFileMismatch"),
        ]
        for (name, content, expected) in cases {
            try? FileManager.default.removeItem(at: dir.slotFile())
            if let content { try content.write(to: dir.slotFile()) }
            let manager = dir.keySlotManager()
            // The untouched first slot opens with "secret"; the edited second slot with "second"
            // gives no key, then the authenticator check names the edit (with "secret").
            let outcome = thrownKeySlotCase { try manager.open(password: "secret") }
            #expect(outcome == expected, "\(name)")
            #expect(Fixture.bytes(dir.file()) == database, "\(name): the database file changed")
            if let error = thrownError({ try manager.open(password: "secret") }) {
                #expect(!"\(error)".contains("secret"), "\(name)")
                #expect("\(error)".contains("backup"), "\(name): \(error)")
            }
        }
        try original.write(to: dir.slotFile())
        #expect(itemCount(in: dir, password: "second") == "3")
    }

    /// The file with its checksum recomputed (what a deliberate edit would do).
    private func reChecksummed(_ data: Data) throws -> Data {
        var file = try JSONDecoder().decode(KeySlotFile.self, from: data)
        file.checksum = file.checksumValue
        return try file.encoded()
    }

    @Test("the slot file holds no password and no key in clear; descriptions are redacted")
    func noKeyMaterialInTheFile() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager(password: "hunter2-pw")
        let storeKey = Data((0..<32).map { UInt8(200 - $0) })
        try manager.keySlots.add(rawKey: storeKey)
        let recovery = try manager.keySlots.addRecoveryKey()
        let dataKey = try manager.keySlots.exportDataKey(password: "hunter2-pw")
        let file = Fixture.bytes(dir.slotFile())
        let hex = { (data: Data) in data.map { String(format: "%02x", $0) }.joined() }
        for needle in [
            Data("hunter2-pw".utf8), dataKey, storeKey, Data(hex(dataKey).utf8), Data(dataKey.base64EncodedString().utf8),
            Data(storeKey.base64EncodedString().utf8), Data(recovery.text.utf8),
        ] {
            #expect(file.range(of: needle) == nil)
            #expect(Fixture.bytes(dir.file()).range(of: needle) == nil)
        }
        #expect(!"\(try manager.keySlots.list())".contains(recovery.text))
        #expect("\(SecretBytes(dataKey))".contains("redacted"))
    }

    @Test("Argon2id below the floor is refused at creation and at unlock without the opt-in")
    func weakParametersRefused() throws {
        let dir = TemporaryDirectory()
        let weak = dir.manager { $0.keySlots = KeySlotOptions(parameters: Argon2Parameters(opsLimit: 1, memoryKiB: 1024)) }
        #expect(thrownKeySlotCase { try weak.create(.password("secret"), keySlots: true) } == "weakKeyDerivation")
        #expect(!FileManager.default.fileExists(atPath: dir.file().path))
        try dir.createdKeySlotManager().close()
        let strict = dir.manager()
        #expect(thrownKeySlotCase { try strict.open(password: "secret") } == "weakKeyDerivation")
        let elsewhere = TemporaryDirectory()
        let huge = elsewhere.manager { $0.keySlots = KeySlotOptions(parameters: Argon2Parameters(opsLimit: 1000, memoryKiB: 65536)) }
        #expect(thrownKeySlotCase { try huge.create(.password("x"), keySlots: true) } == "invalidKeyDerivation")
        #expect(Argon2Parameters.minimum.meetsFloor && !Argon2Parameters(opsLimit: 1, memoryKiB: 19_456).meetsFloor)
    }

    @Test("calibration meets the floor and the target roughly (default options)")
    func calibration() throws {
        let parameters = try KeySlotOptions(targetUnlockTime: 0.05).parametersForNewSlot()
        #expect(parameters.meetsFloor)
        #expect(parameters.memoryKiB == 65_536)
        let refusal = thrownError { _ = try KeySlotOptions(targetUnlockTime: 0).parametersForNewSlot() }
        #expect(refusal.flatMap { DatabaseManagerError(layerError: $0) }?.caseName == "invalidOption")
    }

    @Test("recovery keys round-trip through their written form; every typo of one character is caught")
    func recoveryKeyEncoding() throws {
        let secret = Sodium.random(RecoveryKey.randomLength)
        let text = RecoveryKey.text(for: secret)
        #expect(try RecoveryKey.secret(parsing: text).isEqual(to: secret))
        #expect(try RecoveryKey.secret(parsing: text.lowercased().replacingOccurrences(of: "0", with: "o")).isEqual(to: secret))
        let characters = Array(text)
        var caught = 0
        for index in characters.indices where characters[index] != "-" {
            var typo = characters
            typo[index] = characters[index] == "7" ? "8" : "7"
            if (try? RecoveryKey.secret(parsing: String(typo))) == nil { caught += 1 }
        }
        #expect(caught == 40)
    }
}
