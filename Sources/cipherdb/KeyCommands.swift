import Foundation
import SQLCipherManager
import TerminalIO

// MARK: - keys, export-key

/// Key slots (`<db>.scm-keys`): several passwords, a recovery key, a password change that
/// re-encrypts nothing, a data-key rotation that re-encrypts everything; and the raw data key
/// for other SQLCipher tools.
enum KeyCommands {
    static let actions = ["list", "create", "convert", "change-password", "add-password", "remove-password", "add-recovery", "rotate"]

    static let specs: [CommandSpec] = [
        CommandSpec(
            name: "keys", arguments: ["DB", "ACTION", "[SLOT]"],
            options: CommandSpec.unlocking + [.newPasswordEnv, .newPasswordFile],
            summary: "key slots: list | create | convert | change-password | add-password | remove-password SLOT | "
                + "add-recovery | rotate (stdin: the password, then the new one)",
            run: keys),
        CommandSpec(
            name: "export-key", arguments: ["DB"], options: CommandSpec.unlocking,
            summary: "after the password, print the key-slot database's raw key for the sqlcipher shell (PRAGMA key)",
            run: exportKey),
    ]

    static func keys(_ invocation: Invocation) throws {
        let action = invocation.arguments[1]
        guard actions.contains(action) else {
            throw Failure.usage("Unknown keys action \(action); use one of \(actions.joined(separator: ", ")).")
        }
        guard action == "remove-password" || invocation.arguments.count == 2 else {
            throw Failure.usage("Only `keys DB remove-password SLOT` takes a slot number.")
        }
        try run(action, invocation)
    }

    private static func run(_ action: String, _ invocation: Invocation) throws {
        let passwords = Passwords(invocation: invocation)
        switch action {
        case "list":
            for slot in try Session.manager(for: invocation).keySlots.list() { Console.sayEscaped(slot.description) }
        case "create":
            let manager = Session.manager(for: invocation)
            try manager.create(.password(try passwords.forNewDatabase()), keySlots: true)
            manager.close()
            Console.sayEscaped("Created \(invocation.path) with key slots; back up \(invocation.path).scm-keys with it.")
        case "change-password":
            let manager = Session.manager(for: invocation)
            if let problem = DatabaseTools.inspectFile(at: URL(fileURLWithPath: invocation.path)).problemBeforeUnlock { throw problem }
            try manager.keySlots.change(password: try passwords.current(), to: try passwords.replacement())
            Console.sayEscaped("Changed the password of \(invocation.path) (one key slot; no page re-encrypted).")
        case "convert":
            let password = try passwords.current()
            try Session.withOpenDatabase(invocation, password: password) { manager in
                try MigrationCommands.withProgress("Re-encrypting") { try manager.keySlots.enable(password: password, progress: $0) }
            }
            Console.sayEscaped("Converted \(invocation.path) to key slots; back up \(invocation.path).scm-keys with it.")
        default:
            try Session.withOpenDatabase(invocation) { manager in try change(action, manager, invocation, passwords) }
        }
    }

    /// The actions that need the database open.
    private static func change(_ action: String, _ manager: DatabaseManager, _ invocation: Invocation, _ passwords: Passwords) throws {
        switch action {
        case "add-password":
            let slot = try manager.keySlots.add(password: try passwords.replacement())
            Console.sayEscaped("Added \(slot).")
        case "remove-password":
            guard invocation.arguments.count == 3, let id = Int(invocation.arguments[2]) else {
                throw Failure.usage("remove-password needs the slot number (see `cipherdb keys DB list`).")
            }
            try manager.keySlots.remove(id: id)
            Console.sayEscaped("Removed key slot \(id).")
            Console.warnEscaped(removedSlotWarning(path: invocation.path))
        case "add-recovery":
            let key = try manager.keySlots.addRecoveryKey()
            Console.sayEscaped("Recovery key (slot \(key.slotID)); write it down now, it is shown only once:")
            Console.sayEscaped(key.text)
        default:
            try MigrationCommands.withProgress("Re-encrypting") { try manager.keySlots.rekey(progress: $0) }
            Console.sayEscaped("Re-encrypted \(invocation.path) with a new data key; every key slot was kept.")
        }
    }

    /// What `remove-password` leaves: the data key is unchanged, so the removed password still
    /// unseals it from any older copy of the slot file; only a rotation revokes it.
    static func removedSlotWarning(path: String) -> String {
        "cipherdb: warning: the data key is unchanged. A copy of the old key-slot file "
            + "(\(path).scm-keys in a backup, a synced folder, another device) still opens the database with the "
            + "removed password: this library refuses an older slot file, but the copy unseals the same data key for "
            + "any SQLCipher tool. To revoke the password for real, re-encrypt with a new data key: "
            + "`cipherdb keys \(path) rotate`."
    }

    static func exportKey(_ invocation: Invocation) throws {
        if let problem = DatabaseTools.inspectFile(at: URL(fileURLWithPath: invocation.path)).problemBeforeUnlock { throw problem }
        let manager = Session.manager(for: invocation)
        let key = try manager.keySlots.exportDataKey(password: try Passwords(invocation: invocation).current())
        let hex = key.map { String(format: "%02x", $0) }.joined()
        Console.sayEscaped("PRAGMA key = \"x'\(hex)'\";")
    }

    /// A password (or recovery key) that no slot of a key-slot database accepts.
    static func wrongSecret(path: String) -> Failure {
        Failure(
            .wrongPassword,
            "Incorrect password for \(path): no key slot of it accepts this password or recovery key. "
                + "Try again; `cipherdb keys \(path) list` shows its slots.")
    }

    /// A key-slot error (``DatabaseManagerError/keySlots(_:)``, mapped by `Failure(wrapping:)`)
    /// in an operator's words (commands, not library calls).
    static func operatorFailure(_ error: KeySlotError) -> Failure {
        switch error {
        case .notKeySlotDatabase(let path):
            return Failure(.wrongKind, "\(path) does not use key slots. Convert it first: `cipherdb keys \(path) convert`.")
        case .keySlotDatabase(let path):
            return Failure(
                .wrongKind,
                "\(path) uses key slots: change a password with `cipherdb keys \(path) change-password`, "
                    + "the data key with `cipherdb keys \(path) rotate`.")
        case .backupNeedsItsOwnKey(let path):
            return Failure(
                .usage,
                "\(path) uses key slots, and its backup is written as a password database: give the backup its own "
                    + "password with --new-password-env NAME or --new-password-file PATH, or a raw key with --new-key-file PATH.")
        case .slotNotFound, .lastSlot, .invalidRecoveryKey, .weakKeyDerivation, .invalidKeyDerivation, .slotLimitReached:
            return Failure(.usage, "\(error)")
        case .slotFileMissing, .slotFileDamaged, .slotFileTampered, .slotFileMismatch, .slotFileOutdated, .slotFileNotAFile:
            return Failure(.notADatabase, "\(error)")
        }
    }
}
