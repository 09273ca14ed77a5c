import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Texts and blobs bound without a copy (`SQLITE_STATIC`) by the one-to-eight-value `execute`
/// calls (Statement+Borrowed.swift): SQLite reads the caller's bytes while the
/// statement steps, so what it stores must be those bytes, row after row, once the values that
/// lent them are gone; and the misuse checks still hold.
@Suite struct BorrowedBindingTests {
    private static let createSQL = "CREATE TABLE t(id INTEGER PRIMARY KEY, s TEXT, b BLOB, o TEXT, u TEXT, n INTEGER)"
    private static let insertSQL = "INSERT INTO t(id, s, b, o, u, n) VALUES (?, ?, ?, ?, upper(?), length(?))"

    /// A text of row `id`: short (a small string, kept inline) for even ids, long (on the heap)
    /// for odd ones, built at run time so that every row's bytes live in a fresh value.
    static func text(_ id: Int) -> String {
        id.isMultiple(of: 2) ? "s\(id)" : "a longer text, row \(id), \(String(repeating: "é", count: id % 7))"
    }

    /// A blob of row `id`, of a length that varies with it (empty for multiples of 5).
    static func blob(_ id: Int) -> Data { Data((0..<(id % 5 * 9)).map { UInt8(truncatingIfNeeded: $0 &+ id) }) }

    /// The optional text of row `id`: `nil` for multiples of 3.
    static func optional(_ id: Int) -> String? { id.isMultiple(of: 3) ? nil : "opt \(id)" }

    /// Row `id` as SQLite must hold it.
    static func expected(_ id: Int) -> [DatabaseValue] {
        let s = text(id)
        return [
            .integer(Int64(id)), .text(s), .blob(blob(id)), optional(id).map { .text($0) } ?? .null,
            .text(asciiUppercased(s)), .integer(Int64(s.count)),
        ]
    }

    /// `upper()`'s result: SQLite 3.15 upper-cases ASCII letters only.
    static func asciiUppercased(_ s: String) -> String {
        String(decoding: s.utf8.map { (97...122).contains($0) ? $0 - 32 : $0 }, as: UTF8.self)
    }

    /// Every row of `t`, in id order.
    private func stored(_ manager: DatabaseManager) throws -> [[DatabaseValue]] {
        try manager.fetchAll("SELECT id, s, b, o, u, n FROM t ORDER BY id").map { row in (0..<6).map { row[$0] } }
    }

    @Test func borrowedValuesAreStoredAsBoundAfterTheirScope() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: Self.createSQL)
        try manager.transactionSync { db in
            let insert = try db.prepare(Self.insertSQL)
            for id in 1...200 {
                // Each value is made, lent and dropped inside one iteration: a statement that
                // kept a pointer to it would read the next row's (or freed) bytes.
                if id.isMultiple(of: 2) {
                    try db.execute(Self.insertSQL, id, Self.text(id), Self.blob(id), Self.optional(id), Self.text(id), Self.text(id))
                } else {
                    try insert.execute(id, Self.text(id), Self.blob(id), Self.optional(id), Self.text(id), Self.text(id))
                }
            }
        }
        #expect(try stored(manager) == (1...200).map(Self.expected))
    }

    @Test func aFailedStepWithBorrowedValuesLeavesTheStatementReusable() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: Self.createSQL)
        try manager.withDatabase { db in
            let insert = try db.prepare(Self.insertSQL)
            try insert.execute(1, Self.text(1), Self.blob(1), Self.optional(1), Self.text(1), Self.text(1))
            // The same id again: the step fails (a constraint) while the values are lent.
            let duplicate = thrownError {
                try insert.execute(1, Self.text(3), Self.blob(3), Self.optional(3), Self.text(3), Self.text(3))
            }
            #expect((duplicate as? SQLiteError)?.code == .constraint)
            let viaExecute = thrownError {
                try db.execute(Self.insertSQL, 1, Self.text(5), Self.blob(5), Self.optional(5), Self.text(5), Self.text(5))
            }
            #expect((viaExecute as? SQLiteError)?.code == .constraint)
            try insert.execute(2, Self.text(2), Self.blob(2), Self.optional(2), Self.text(2), Self.text(2))
            try db.execute(Self.insertSQL, 3, Self.text(3), Self.blob(3), Self.optional(3), Self.text(3), Self.text(3))
        }
        #expect(try stored(manager) == (1...3).map(Self.expected))
    }

    @Test func misuseIsStillCaughtWithBorrowedValues() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: Self.createSQL)
        let (db, insert) = try manager.withDatabase { db in
            // Too few values for the statement: `range` before anything is bound or stepped.
            let short = thrownError { try db.execute(Self.insertSQL, 1, "x", Data([1])) }
            #expect((short as? SQLiteError)?.code == .range)
            let prepared = try db.prepare(Self.insertSQL)
            let shortPrepared = thrownError { try prepared.execute(1, "x", Data([1])) }
            #expect((shortPrepared as? SQLiteError)?.code == .range)
            return (db, prepared)
        }
        #expect(try stored(manager).isEmpty)
        manager.close()
        let closed = thrownError { try db.execute(Self.insertSQL, 1, "x", Data([1]), "o", "u", "n") }
        #expect((closed as? SQLiteError)?.code == .misuse)
        let closedPrepared = thrownError { try insert.execute(1, "x", Data([1]), "o", "u", "n") }
        #expect((closedPrepared as? SQLiteError)?.code == .misuse)
    }

    @Test func aStatementClearedAfterBorrowedValuesBindsNull() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE t(id INTEGER PRIMARY KEY, s TEXT)")
        try manager.withDatabase { db in
            try db.execute("INSERT INTO t(id, s) VALUES (?, ?)", 1, Self.text(1))
            // The same SQL through the statement cache with its bindings cleared, no value given:
            // the parameter the last call lent is NULL, not the gone bytes.
            let statement = try db.connection.cachedStatement("INSERT INTO t(id, s) VALUES (?, ?)", clearingBindings: true)
            try statement.runToEnd()
        }
        let rows = try manager.fetchAll("SELECT id, s FROM t ORDER BY id").map { [$0[0], $0[1]] }
        #expect(rows == [[.integer(1), .text(Self.text(1))], [.integer(2), .null]])
    }
}
