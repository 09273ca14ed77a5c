import Foundation
@testable import SQLCipherManager

/// A fresh folder per test, removed when the value is released.
final class TemporaryDirectory: @unchecked Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("SQLCipherManagerTests-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func file(_ name: String = "test.db") -> URL { url.appendingPathComponent(name) }

    /// A manager for a file in this folder, with a fast KDF so tests stay quick.
    func manager(
        _ name: String = "test.db", kdfIterations: Int = 4000, configure: (inout DatabaseConfiguration) -> Void = { _ in }
    ) -> DatabaseManager {
        var configuration = DatabaseConfiguration(cipher: CipherOptions(kdfIterations: kdfIterations))
        configure(&configuration)
        return DatabaseManager(url: file(name), configuration: configuration)
    }
}

// MARK: - Files

enum Fixture {
    /// Writes a plaintext SQLite database (no key) with one table and rows.
    static func makePlaintextDatabase(at url: URL, rows: Int = 3, userVersion: Int = 0) throws {
        let connection = try Connection(path: url.path, mode: .readWriteCreate)
        defer { connection.close() }
        let db = Database(connection: connection)
        try db.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
        for index in 0..<rows { try db.execute("INSERT INTO item(name) VALUES (?)", "plain-\(index)") }
        try db.setSchemaVersion(userVersion)
    }

    /// Creates an encrypted database with `password` and a table of `rows` marker rows.
    static func makeEncryptedDatabase(
        in dir: TemporaryDirectory, name: String = "test.db", password: String = "secret", rows: Int = 3
    ) throws -> URL {
        let manager = dir.manager(name)
        try manager.create(password: password)
        try manager.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
        try manager.transaction { db in
            for index in 0..<rows { try db.execute("INSERT INTO item(name) VALUES (?)", "MARKER-\(index)") }
        }
        manager.close()
        return dir.file(name)
    }

    static func bytes(_ url: URL) -> Data { (try? Data(contentsOf: url)) ?? Data() }

    static func contains(_ url: URL, _ marker: String) -> Bool {
        bytes(url).range(of: Data(marker.utf8)) != nil
    }
}

extension DatabaseManagerError {
    /// The case name, for assertions.
    var caseName: String {
        if let label = Mirror(reflecting: self).children.first?.label { return label }
        switch self {
        case .notConfigured: return "notConfigured"
        case .sqlcipherNotLinked: return "sqlcipherNotLinked"
        case .alreadyOpen: return "alreadyOpen"
        case .notOpen: return "notOpen"
        case .noCachedKey: return "noCachedKey"
        case .transactionInProgress: return "transactionInProgress"
        default: return "\(self)"
        }
    }
}

/// Runs `body` and returns the DatabaseManagerError case name it threw ("none" when it did not throw).
func thrownCase(_ body: () throws -> Void) -> String {
    do {
        try body()
        return "none"
    } catch let error as DatabaseManagerError {
        return error.caseName
    } catch {
        return "other: \(error)"
    }
}
