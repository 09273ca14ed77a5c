import Foundation
import TestSupport

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

// MARK: - SidecarPairs

/// A database and the `-wal` or hot `-journal` a crash leaves beside it (FuzzHarness's
/// ``Seeds``, made by copying the files while a connection still has them open), at `test.db`.
enum SidecarPairs {
    static let rows = 300
    static var walRows: Int { Seeds.walRows }

    @discardableResult
    static func makeDatabase(in dir: TemporaryDirectory, password: String = "secret") throws -> URL {
        try Seeds.makeDatabase(at: dir.file().path, password: password, rows: rows)
        return dir.file()
    }

    static func makeWALPair(in dir: TemporaryDirectory, password: String = "secret") throws {
        let source = TemporaryDirectory()
        try Seeds.makeWALPair(at: source.file().path, password: password, rows: rows).write(to: dir.file().path)
    }

    static func makeHotJournalPair(in dir: TemporaryDirectory, password: String = "secret") throws {
        let source = TemporaryDirectory()
        try Seeds.makeHotJournalPair(at: source.file().path, password: password, rows: rows).write(to: dir.file().path)
    }

    /// `rows` original rows, each once, and nothing that was never committed.
    static func checkRows(_ manager: DatabaseManager, walRows: Int = 0) throws -> Bool {
        let count = try manager.scalar(Int.self, "SELECT count(*) FROM item")
        let spilled = try manager.scalar(Int.self, "SELECT count(*) FROM item WHERE name LIKE 'SPILLED-%'")
        let wal = try manager.scalar(Int.self, "SELECT count(*) FROM item WHERE name LIKE 'WAL-%'")
        return count == rows + walRows && spilled == 0 && wal == walRows
    }

    /// Moves `<file>-<suffix>` to `<file>-<suffix>.moved`.
    static func moveAway(_ file: URL, suffix: String) throws {
        try FileManager.default.moveItem(atPath: file.path + suffix, toPath: file.path + suffix + ".moved")
    }
}
