import Foundation
import SQLCipherManager
import TerminalIO

// MARK: - info

/// `cipherdb info DB`: what the file is, without a password; with `--unlock` or a password
/// option, also what is inside — or, when the password does not open it, what the settings
/// diagnosis found (exit 3).
enum InfoCommand {
    static func run(_ invocation: Invocation) throws {
        let info = DatabaseTools.inspectFile(at: URL(fileURLWithPath: invocation.path))
        Console.sayEscaped("file: \(invocation.path)")
        Console.sayEscaped("kind: \(info.kind)")
        if let size = info.size, info.kind != .directory { Console.sayEscaped("size: \(size) bytes") }
        switch info.kind {
        case .missing, .parentDirectoryMissing:
            throw info.problemBeforeUnlock ?? DatabaseManagerError.fileNotFound(path: invocation.path)
        case .plaintextSQLite:
            Console.sayEscaped("page size: \(info.plaintextPageSize ?? 0)")
            Console.sayEscaped("pages: \(info.plaintextPageCount ?? 0)\(pageCountSource(info))")
            Console.sayEscaped("schema version: \(info.plaintextUserVersion ?? 0)")
        default:
            break
        }
        guard Passwords(invocation: invocation).isGiven || invocation.has(.keyFile) else { return }
        do {
            try Session.withOpenDatabase(invocation) { try printContents(of: $0, path: invocation.path) }
        } catch let mismatch as SettingsMismatch {
            Console.sayEscaped("unlock: \(mismatch.summary)")
            throw mismatch
        }
    }

    /// Where the page count comes from when it is not the header's: SQLite's rule (a header
    /// count is used only when non-zero and its change counter matches offset 92), and a count
    /// larger than the file, which no SQLite can read.
    static func pageCountSource(_ info: DatabaseFileInfo) -> String {
        guard let claimed = info.plaintextHeaderPageCount else { return "" }
        if info.plaintextHeaderPageCountIsStale == true {
            return " (from the file size; the header claims \(claimed), a count SQLite ignores: "
                + (claimed == 0 ? "it is zero)" : "its change counter differs from its version-valid-for number)")
        }
        if info.plaintextHeaderPageCountExceedsFile == true {
            return " (from the file size; the header claims \(claimed), more than the file holds: the file is damaged or truncated)"
        }
        return ""
    }

    /// Cipher settings, schema version and tables of an unlocked database.
    static func printContents(of manager: DatabaseManager, path: String) throws {
        let cipher = try manager.cipherInfo
        Console.sayEscaped("cipher: SQLCipher \(cipher.version) (\(cipher.provider ?? "?"))")
        Console.sayEscaped("settings: \(cipher.settings)")
        if let format = manager.fileFormat {
            Console.sayEscaped("format: \(format)")
            if format.isUpgradeAvailable {
                Console.sayEscaped(
                    "upgrade: available: `cipherdb upgrade \(path)` rewrites it in SQLCipher "
                        + "\(format.currentMajorVersion)'s format (SQLCipher \(format.majorVersion) can then no longer read it)")
            }
        }
        Console.sayEscaped("schema version: \(try manager.schemaVersion)")
        let tables = try manager.readSync { db in
            try db.fetchAll("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        }
        let names = tables.compactMap { $0.value(0, as: String.self) }
        Console.sayEscaped("tables: \(names.count)")
        for name in names {
            let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let count = try manager.readSync { db in try db.scalar(Int.self, "SELECT count(*) FROM \(quoted)") } ?? 0
            Console.sayEscaped("  \(name): \(count) row\(count == 1 ? "" : "s")")
        }
    }
}
