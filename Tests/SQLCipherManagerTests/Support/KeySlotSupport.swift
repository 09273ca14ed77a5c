import Foundation
import TestSupport

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

extension KeySlotOptions {
    /// The tests' cheap Argon2id (1 pass over 1 MiB), below ``Argon2Parameters/minimum``: opted in.
    static let fast = KeySlotOptions(parameters: Argon2Parameters(opsLimit: 1, memoryKiB: 1024), allowsWeakKeyDerivation: true)
}

extension TemporaryDirectory {
    /// A manager with the tests' fast PBKDF2 and Argon2id.
    func keySlotManager(_ name: String = "test.db") -> DatabaseManager {
        manager(name) { $0.keySlots = .fast }
    }

    /// A key-slot database (password "secret" unless told) with a table of `rows` marker rows, open.
    func createdKeySlotManager(_ name: String = "test.db", password: String = "secret", rows: Int = 3) throws -> DatabaseManager {
        let manager = keySlotManager(name)
        try manager.create(.password(password), keySlots: true)
        try manager.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
        try manager.transactionSync { db in
            for index in 0..<rows { try db.execute("INSERT INTO item(name) VALUES (?)", "MARKER-\(index)") }
        }
        return manager
    }

    /// The slot file's path for a database in this directory.
    func slotFile(_ name: String = "test.db") -> URL { file(name + ".scm-keys") }
}

/// The number of rows in `item`, opening a fresh manager with `password`; the error's case name
/// when it fails (the ``KeySlotError``'s inside ``DatabaseManagerError/keySlots(_:)``).
func itemCount(in dir: TemporaryDirectory, password: String, name: String = "test.db") -> String {
    let manager = dir.keySlotManager(name)
    defer { manager.close() }
    do {
        try manager.open(password: password)
        return "\(try manager.scalar(Int.self, "SELECT count(*) FROM item") ?? -1)"
    } catch DatabaseManagerError.keySlots(let error) {
        return error.caseName
    } catch {
        return outcomeName(error)
    }
}

extension KeySlotError {
    /// The case name, for assertions where the associated values are not known exactly; where
    /// they are, compare the error itself with `==`. Exhaustive, like ``DatabaseManagerError/caseName``.
    var caseName: String {
        switch self {
        case .slotFileMissing: "slotFileMissing"
        case .slotFileDamaged: "slotFileDamaged"
        case .slotFileTampered: "slotFileTampered"
        case .slotFileMismatch: "slotFileMismatch"
        case .slotFileOutdated: "slotFileOutdated"
        case .slotFileNotAFile: "slotFileNotAFile"
        case .slotLimitReached: "slotLimitReached"
        case .notKeySlotDatabase: "notKeySlotDatabase"
        case .keySlotDatabase: "keySlotDatabase"
        case .backupNeedsItsOwnKey: "backupNeedsItsOwnKey"
        case .lastSlot: "lastSlot"
        case .slotNotFound: "slotNotFound"
        case .weakKeyDerivation: "weakKeyDerivation"
        case .invalidKeyDerivation: "invalidKeyDerivation"
        case .invalidRecoveryKey: "invalidRecoveryKey"
        }
    }
}

/// The case name of the error `body` (a manager call) threw, "none" when it did not throw: a
/// ``KeySlotError``'s inside ``DatabaseManagerError/keySlots(_:)``, any other ``DatabaseManagerError``'s
/// own; a bare ``KeySlotError`` (which the manager no longer throws) is "other: …".
func thrownKeySlotCase(_ body: () throws -> Void) -> String {
    switch thrownError(body) {
    case nil: "none"
    case DatabaseManagerError.keySlots(let error)?: error.caseName
    case let error?: outcomeName(error)
    }
}
