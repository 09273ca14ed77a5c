import Foundation
import TestSupport

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// A fresh directory per test, removed when the value is released.
final class TemporaryDirectory: @unchecked Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("SQLCipherManagerTests-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func file(_ name: String = "test.db") -> URL { url.appendingPathComponent(name) }

    /// A manager for a file in this directory, with a fast KDF so tests stay quick.
    func manager(
        _ name: String = "test.db", kdfIterations: Int = 4000, configure: (inout DatabaseConfiguration) -> Void = { _ in }
    ) -> DatabaseManager {
        Self.manager(at: file(name), kdfIterations: kdfIterations, configure: configure)
    }

    /// A manager whose database is created (password "secret") and holds one table.
    func createdManager(table: String) throws -> DatabaseManager {
        let manager = manager()
        try manager.create(password: "secret")
        try manager.execute(table)
        return manager
    }

    /// A manager for any path, with the same fast KDF.
    static func manager(
        at url: URL, kdfIterations: Int = 4000, configure: (inout DatabaseConfiguration) -> Void = { _ in }
    ) -> DatabaseManager {
        // The tests' cheap KDF is below the floor for new databases: they opt in, as a user
        // opening a legacy file would.
        var configuration = DatabaseConfiguration(cipher: .fast(kdfIterations: kdfIterations))
        configure(&configuration)
        return DatabaseManager(url: url, configuration: configuration)
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
        try makeEncryptedDatabase(at: dir.file(name), password: password, rows: rows)
        return dir.file(name)
    }

    /// Creates an encrypted database at any path (the tests' fast KDF).
    static func makeEncryptedDatabase(at url: URL, password: String = "secret", rows: Int = 3) throws {
        let manager = TemporaryDirectory.manager(at: url)
        try manager.create(password: password)
        try manager.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
        try manager.transactionSync { db in
            for index in 0..<rows { try db.execute("INSERT INTO item(name) VALUES (?)", "MARKER-\(index)") }
        }
        manager.close()
    }

    static func bytes(_ url: URL) -> Data { (try? Data(contentsOf: url)) ?? Data() }

    /// A file shipped in `Tests/Fixtures` (outside the test target, so SwiftPM sees no resources).
    static func shipped(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath)  // Tests/SQLCipherManagerTests/Support/this file
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(name)
    }

    static func contains(_ url: URL, _ marker: String) -> Bool {
        bytes(url).range(of: Data(marker.utf8)) != nil
    }
}

extension DatabaseManagerError {
    /// The case name, for assertions where the associated values are not known exactly (a
    /// reason's text, a temporary path); where they are, compare the error itself with `==`.
    /// An exhaustive switch, so a new case is named here or the tests do not compile.
    var caseName: String {
        switch self {
        case .notConfigured: "notConfigured"
        case .invalidPassword: "invalidPassword"
        case .invalidKeyLength: "invalidKeyLength"
        case .invalidOption: "invalidOption"
        case .unsupportedOption: "unsupportedOption"
        case .sqlcipherNotLinked: "sqlcipherNotLinked"
        case .encryptionNotActive: "encryptionNotActive"
        case .alreadyOpen: "alreadyOpen"
        case .notOpen: "notOpen"
        case .fileNotFound: "fileNotFound"
        case .fileAlreadyExists: "fileAlreadyExists"
        case .isDirectory: "isDirectory"
        case .parentDirectoryMissing: "parentDirectoryMissing"
        case .invalidPath: "invalidPath"
        case .plaintextDatabase: "plaintextDatabase"
        case .notPlaintextDatabase: "notPlaintextDatabase"
        case .incorrectPasswordOrSettings: "incorrectPasswordOrSettings"
        case .incorrectKeyOrSettings: "incorrectKeyOrSettings"
        case .notADatabase: "notADatabase"
        case .corrupt: "corrupt"
        case .permissionDenied: "permissionDenied"
        case .notWritable: "notWritable"
        case .diskFull: "diskFull"
        case .ioError: "ioError"
        case .busy: "busy"
        case .noCachedKey: "noCachedKey"
        case .schemaVersionTooNew: "schemaVersionTooNew"
        case .migrationFailed: "migrationFailed"
        case .insufficientDiskSpace: "insufficientDiskSpace"
        case .transactionInProgress: "transactionInProgress"
        case .verificationFailed: "verificationFailed"
        case .recoveryFailed: "recoveryFailed"
        case .operationInProgress: "operationInProgress"
        case .keyChanged: "keyChanged"
        case .headerSaltUnusable: "headerSaltUnusable"
        case .keyChangeInterrupted: "keyChangeInterrupted"
        case .openElsewhere: "openElsewhere"
        case .foreignSidecar: "foreignSidecar"
        case .untrustedFile: "untrustedFile"
        case .sqlite: "sqlite"
        case .keySlots(let error): "keySlots(\(error.caseName))"
        case .keyUnavailable: "keyUnavailable"
        case .keyRefused: "keyRefused"
        case .keyNotStored: "keyNotStored"
        case .randomSourceFailed: "randomSourceFailed"
        case .reentrantCall: "reentrantCall"
        }
    }
}

/// Runs `body` and returns the DatabaseManagerError case name it threw ("none" when it did not
/// throw; "sqlite:<primary code>" for a statement's SQLiteError).
func thrownCase(_ body: () throws -> Void) -> String {
    thrownError(body).map(outcomeName) ?? "none"
}

/// Runs `body` and returns what it threw, or `nil`.
func thrownError(_ body: () throws -> Void) -> (any Error)? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}

/// A DatabaseManagerError's case name, `sqlite:<primary code>` for an SQLiteError.
func outcomeName(_ error: any Error) -> String {
    switch error {
    case let error as DatabaseManagerError: return error.caseName
    case let error as SQLiteError: return "sqlite:\(error.code)"
    default: return "other: \(error)"
    }
}

extension CipherOptions {
    /// The tests' cheap KDF (4,000 iterations unless told), below ``CipherOptions/minimumKDFIterations``,
    /// so it opts in with ``CipherOptions/allowsLegacyKDFIterations``.
    static func fast(kdfIterations: Int = 4000, pageSize: Int? = nil, usesHMAC: Bool? = nil) -> CipherOptions {
        CipherOptions(kdfIterations: kdfIterations, pageSize: pageSize, usesHMAC: usesHMAC, allowsLegacyKDFIterations: true)
    }
}
