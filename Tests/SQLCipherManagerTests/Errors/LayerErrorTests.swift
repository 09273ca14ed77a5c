import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherKeys
@testable import SQLCipherManager

/// The key layer throws its own errors; a manager call throws the ``DatabaseManagerError`` of
/// the same failure, with the same words.
@Suite("Errors of the layers below the manager")
struct LayerErrorTests {
    @Test("DatabaseKey throws DatabaseKeyError, matched by code; the manager's error says the same")
    func databaseKeyErrorMatchesByCodeAndMapsWithItsMessage() throws {
        var matched: DatabaseKeyError.Code?
        do {
            _ = try DatabaseKey(bytes: [UInt8](repeating: 7, count: 33))
        } catch DatabaseKeyError.Code.invalidKeyLength {
            matched = .invalidKeyLength
        }
        #expect(matched == .invalidKeyLength)
        for error in [DatabaseKeyError.invalidKeyLength(33), .randomSourceFailed(reason: "EIO")] {
            let mapped = try #require(DatabaseManagerError(layerError: error))
            #expect(mapped.description == error.description)
            #expect(mapped.code.description == error.code.description)
        }
    }

    @Test("a slot option out of range is invalidOption from the manager, naming the option")
    func slotOptionOutOfRange() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager { $0.keySlots = KeySlotOptions(targetUnlockTime: 0) }
        let error = thrownError { try manager.create(.password("secret"), keySlots: true) }
        #expect(error.map(outcomeName) == "invalidOption")
        #expect("\(error.map { "\($0)" } ?? "none")".contains("The option targetUnlockTime is invalid"))
        #expect(!FileManager.default.fileExists(atPath: dir.file().path))
    }

    @Test("a slot change while another manager holds the slot lock is operationInProgress")
    func slotLockHeldElsewhere() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager()
        defer { manager.close() }
        let held = try #require(try OperationLock.acquire(for: dir.slotFile().path))
        defer { held.release() }
        #expect(throws: DatabaseManagerError.operationInProgress(path: dir.file().path)) {
            _ = try manager.keySlots.add(password: "other", label: "second")
        }
        #expect(try manager.keySlots.list().count == 1)
    }
}
