import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// The statement cache's last-statement fast path and the variadic binding path.
@Suite struct StatementCacheTests {
    private func openManager(_ dir: TemporaryDirectory) throws -> DatabaseManager {
        try dir.createdManager(table: "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b INTEGER, c REAL)")
    }

    @Test func alternatingStatementsEachBindTheirOwnArguments() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.withDatabase { db in
            for index in 1...20 {
                try db.execute("INSERT INTO t(id, a, b, c) VALUES (?, ?, ?, ?)", index, "row \(index)", index * 2, 0.5)
                let row = try db.fetchOne("SELECT a, b FROM t WHERE id = ?", index)
                #expect(row?.value(0, as: String.self) == "row \(index)")
                #expect(row?.value(1, as: Int.self) == index * 2)
            }
        }
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM t") == 20)
    }

    @Test func anEqualSQLStringBuiltAtRunTimeFindsTheCachedStatement() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        let literal = "SELECT count(*) FROM t WHERE b > ?"
        let built = ["SELECT count(*)", "FROM t WHERE b > ?"].joined(separator: " ")
        try manager.execute("INSERT INTO t(b) VALUES (1), (2), (3)")
        #expect(try manager.scalar(Int.self, literal, 1) == 2)
        #expect(try manager.scalar(Int.self, built, 2) == 1)
        #expect(try manager.scalar(Int.self, literal, 0) == 3)
    }

    @Test func variadicArgumentsBindEveryTypeAndNil() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        let missing: String? = nil
        try manager.execute("INSERT INTO t(id, a, b, c) VALUES (?, ?, ?, ?)", Int64(7), missing, true, nil)
        let row = try #require(try manager.fetchOne("SELECT a, b, c FROM t WHERE id = ?", 7))
        #expect(row[0] == .null)
        #expect(row[1] == .integer(1))
        #expect(row[2] == .null)
    }

    @Test func aWrongArgumentCountThrowsRangeAndTheNextCallStillWorks() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        let sql = "INSERT INTO t(a, b) VALUES (?, ?)"
        for arguments in [[], ["only one"], ["one", "two", "three"]] as [[String]] {
            do {
                try manager.withDatabase { db in
                    try db.execute(sql, arguments: StatementArguments(arguments))
                }
                Issue.record("expected a range error for \(arguments.count) arguments")
            } catch let error as SQLiteError {
                #expect(error.code == .range)
            }
        }
        try manager.execute(sql, "a", 1)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM t") == 1)
    }

    /// A cached statement is reset only when it was stepped since its last reset:
    /// every use still starts from the first row, and none is left holding a read.
    @Test func aStatementSteppedOnceIsResetBeforeItsNextUseAndHoldsNoRead() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.execute("INSERT INTO t(id, a) VALUES (1, 'one'), (2, 'two'), (3, 'three')")
        try manager.withDatabase { db in
            let sql = "SELECT a FROM t WHERE id >= ? ORDER BY id"
            for id in [1, 1, 2, 3, 1] {
                // Two rows match the first and second lookups: each use still returns the first.
                #expect(try db.fetchOne(sql, id)?.value(0, as: String.self) == ["one", "two", "three"][id - 1])
                #expect(db.connection.busyStatementCount == 0)
            }
            let statement = try db.connection.cachedStatement(sql)
            try statement.bind([.integer(1)])
            #expect(try statement.step())
            #expect(db.connection.busyStatementCount == 1)
            // Reset twice (after its use and before the next): the statement is rewound once.
            statement.reset()
            statement.reset()
            #expect(db.connection.busyStatementCount == 0)
            try statement.bind([.integer(2)])
            #expect(try statement.step())
            #expect(statement.text(at: 0) == "two")
            statement.reset()
        }
    }
}
