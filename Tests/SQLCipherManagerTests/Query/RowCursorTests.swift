import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// `Database.fetchCursor` / `RowCursor`: lazy rows read in place as `RowView`s, and
/// every misuse stopped — a precondition with a message for a stale row or a missing column, a
/// typed error for the cursor — rather than a read of freed or stale memory.
@Suite struct RowCursorTests {
    fileprivate func filledManager(_ dir: TemporaryDirectory, rows: Int = 3) throws -> DatabaseManager {
        let manager = try dir.createdManager(table: "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b INTEGER, c REAL, d BLOB)")
        try manager.transactionSync { db in
            for id in 1...rows {
                try db.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)", id, "héllo \(id)", id * 10, Double(id) / 2, Data([UInt8(id)]))
            }
            try db.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)", arguments: [rows + 1, nil, nil, nil, nil])
        }
        return manager
    }

    private func misuse(_ body: () throws -> Void, saying words: String) -> Bool {
        guard let error = thrownError(body) as? SQLiteError else { return false }
        return error.code == .misuse && (error.message ?? "").contains(words)
    }

    @Test func cursorStepsRowsAndReadsTypedColumnsInPlace() throws {
        let dir = TemporaryDirectory()
        let manager = try filledManager(dir)
        let seen = try manager.readSync { db in
            let cursor = try db.fetchCursor("SELECT id, a, b, c, d FROM t WHERE id >= ? ORDER BY id", 2)
            #expect(cursor.count == 5)
            #expect(cursor.sql == "SELECT id, a, b, c, d FROM t WHERE id >= ? ORDER BY id")
            var seen: [Row] = []
            while let row = try cursor.next() {
                #expect(row.columnNames == ["id", "a", "b", "c", "d"])
                let id = row.int64(0)
                if id < 4 {
                    #expect(row.text(1) == "héllo \(id)")
                    #expect(row.withUTF8(1) { Array($0) } == Array("héllo \(id)".utf8))
                    #expect(row.int64(2) == id * 10 && row.double(3) == Double(id) / 2)
                    #expect(row[4] == .blob(Data([UInt8(id)])))
                    #expect(row.value(2, as: Int64.self) == id * 10)
                    #expect(try row.decode(String.self, column: "a") == "héllo \(id)")
                    #expect(!row.isNull(1))
                } else {
                    #expect(row.isNull(1) && row.text(1) == nil)
                    #expect(row.withUTF8(1) { $0.count } == 0)
                    #expect(row.value(2, as: Int?.self) == .some(nil))
                }
                seen.append(row.row)
            }
            #expect(try cursor.next() == nil)
            return seen
        }
        #expect(seen.map { $0.value(0, as: Int.self) } == [2, 3, 4])
        #expect(seen[0]["a"] == .text("héllo 2"))
    }

    @Test func argumentsBindInEveryForm() throws {
        let dir = TemporaryDirectory()
        let manager = try filledManager(dir)
        func ids(_ cursor: RowCursor) throws -> [Int64] {
            var ids: [Int64] = []
            try cursor.forEach { ids.append($0.int64(0)) }
            return ids
        }
        try manager.withDatabase { db in
            let two = try ids(try db.fetchCursor("SELECT id FROM t WHERE id BETWEEN ? AND ? ORDER BY id", 2, 3))
            let values = try ids(try db.fetchCursor("SELECT id FROM t WHERE id > ? ORDER BY id", arguments: [DatabaseValue.integer(3)]))
            let named = try ids(try db.fetchCursor("SELECT id FROM t WHERE id < :id ORDER BY id", arguments: ["id": 3]))
            #expect(two == [2, 3] && values == [4] && named == [1, 2])
            let error = thrownError { _ = try db.fetchCursor("SELECT id FROM t WHERE id = ?") } as? SQLiteError
            #expect(error?.code == .range)
            // A failed bind gave its statement back: the same SQL still runs.
            #expect(try ids(try db.fetchCursor("SELECT id FROM t WHERE id = ?", 1)) == [1])
        }
    }

    /// A row read after its cursor moved on (the next row, `finish()`) stops the child process
    /// at a precondition that says so, whichever getter reads it.
    @Test func aRowUsedAfterTheCursorMovedOnStopsWithAMessage() async throws {
        let stopped = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dir = TemporaryDirectory()
            let manager = try RowCursorTests().filledManager(dir)
            try manager.withDatabase { db in
                let cursor = try db.fetchCursor("SELECT id, a FROM t ORDER BY id")
                let first = try #require(try cursor.next())
                let second = try #require(try cursor.next())
                guard first.int64(0) == 1 || second.int64(0) == 2 else { return }
                try FileManager.default.removeItem(at: dir.url)
                _ = first.text(1)
            }
        }
        #expect(String(decoding: stopped.standardErrorContent, as: UTF8.self).contains("after its statement moved on"))
        await #expect(processExitsWith: .failure) {
            let dir = TemporaryDirectory()
            let manager = try RowCursorTests().filledManager(dir)
            try manager.withDatabase { db in
                let cursor = try db.fetchCursor("SELECT id, a FROM t ORDER BY id")
                let row = try #require(try cursor.next())
                cursor.finish()
                try FileManager.default.removeItem(at: dir.url)
                _ = row.row
            }
        }
    }

    /// The row read before the cursor moves on is the one it names; `next()` after `finish()`
    /// is `nil`; a row keeps its cursor alive, so a temporary cursor's row can be read.
    @Test func aRowReadsItsOwnStepUntilTheCursorMoves() throws {
        let dir = TemporaryDirectory()
        let manager = try filledManager(dir)
        try manager.withDatabase { db in
            #expect(try db.fetchCursor("SELECT a FROM t WHERE id = ?", 2).next()?.text(0) == "héllo 2")
            let kept = try #require(try db.fetchCursor("SELECT id FROM t ORDER BY id").next())
            #expect(kept.int64(0) == 1 && kept.row.value(0, as: Int.self) == 1)
            let cursor = try db.fetchCursor("SELECT id, a FROM t ORDER BY id")
            let first = try #require(try cursor.next())
            #expect(first.int64(0) == 1 && first.text(1) == "héllo 1" && first.row.value(0, as: Int.self) == 1)
            let second = try #require(try cursor.next())
            #expect(second.int64(0) == 2)
            cursor.finish()
            #expect(try cursor.next() == nil)
        }
    }

    /// A column index out of range stops at a precondition naming the row's size; `decode`
    /// throws `range` and `mismatch` instead.
    @Test func aColumnIndexOutOfRangeStopsAndDecodeThrows() async throws {
        let stopped = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dir = TemporaryDirectory()
            let manager = try RowCursorTests().filledManager(dir)
            try manager.withDatabase { db in
                let cursor = try db.fetchCursor("SELECT id, a FROM t")
                let row = try #require(try cursor.next())
                try FileManager.default.removeItem(at: dir.url)
                withExtendedLifetime(cursor) { _ = row.int64(2) }
            }
        }
        #expect(
            String(decoding: stopped.standardErrorContent, as: UTF8.self).contains("RowView index 2 out of range: the row has 2 columns"))
        let dir = TemporaryDirectory()
        let manager = try filledManager(dir)
        try manager.withDatabase { db in
            let cursor = try db.fetchCursor("SELECT id, a FROM t")
            defer { cursor.finish() }
            let row = try #require(try cursor.next())
            for index in [-1, 2, 100] {
                let error = thrownError { _ = try row.decode(Int.self, at: index) } as? SQLiteError
                #expect(error?.code == .range)
                #expect(error?.message?.contains("(id, a)") == true)
            }
            let mismatch = thrownError { _ = try row.decode(Int.self, at: 1) } as? SQLiteError
            #expect(mismatch?.code == .mismatch)
        }
    }

    /// A cursor kept past close throws `misuse` without a C call; its row stops at the
    /// precondition of a closed database.
    @Test func aCursorAndItsRowKeptPastCloseAreStopped() async throws {
        let dir = TemporaryDirectory()
        let manager = try filledManager(dir)
        let cursor = try manager.withDatabase { db in
            let cursor = try db.fetchCursor("SELECT id, a FROM t ORDER BY id")
            let row = try #require(try cursor.next())
            #expect(row.columnNames == ["id", "a"] && cursor.columnNames == ["id", "a"])
            return cursor
        }
        manager.close()
        #expect(misuse({ _ = try cursor.next() }, saying: "closed"))
        #expect(cursor.columnNames == ["id", "a"])  // read once, kept: no C call
        // The file is intact and opens again.
        try manager.open(password: "secret")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM t") == 4)
        let stopped = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dir = TemporaryDirectory()
            let manager = try RowCursorTests().filledManager(dir)
            let row = try manager.withDatabase { db in try #require(try db.fetchCursor("SELECT id, a FROM t").next()) }
            manager.close()
            try FileManager.default.removeItem(at: dir.url)
            _ = row.int64(0)
        }
        #expect(String(decoding: stopped.standardErrorContent, as: UTF8.self).contains("A RowView was used after its database closed"))
    }

    @Test func otherCallsWithTheSameSQLDoNotDisturbAnOpenCursor() throws {
        let dir = TemporaryDirectory()
        let manager = try filledManager(dir)
        try manager.withDatabase { db in
            let sql = "SELECT id FROM t WHERE id >= ? ORDER BY id"
            let outer = try db.fetchCursor(sql, 1)
            var pairs: [[Int64]] = []
            while let row = try outer.next() {
                let id = row.int64(0)
                // The same SQL through the cache and through a second cursor, between two steps.
                let fetched = try db.fetchOne(sql, id)?.value(0, as: Int64.self)
                let inner = try db.fetchCursor(sql, id)
                pairs.append([id, fetched ?? -1, try inner.next()?.int64(0) ?? -1])
                #expect(row.int64(0) == id)
            }
            #expect(pairs == [[1, 1, 1], [2, 2, 2], [3, 3, 3], [4, 4, 4]])
        }
    }

    @Test func anUnfinishedCursorIsResetWhenFinishedOrReleased() throws {
        let dir = TemporaryDirectory()
        let manager = try filledManager(dir, rows: 50)
        try manager.withDatabase { db in
            do {
                let cursor = try db.fetchCursor("SELECT id FROM t")
                _ = try cursor.next()
                #expect(db.connection.busyStatementCount == 1)
            }
            #expect(db.connection.busyStatementCount == 0)
            let cursor = try db.fetchCursor("SELECT id FROM t")
            _ = try cursor.next()
            #expect(db.connection.busyStatementCount == 1)
            cursor.finish()
            #expect(db.connection.busyStatementCount == 0)
            // A cursor that read to the end is reset as well.
            try db.fetchCursor("SELECT id FROM t").forEach { _ in }
            #expect(db.connection.busyStatementCount == 0)
        }
    }

    @Test func aFailingStepEndsTheCursorWithItsError() throws {
        let dir = TemporaryDirectory()
        let manager = try filledManager(dir)
        try manager.withDatabase { db in
            // abs(-9223372036854775808) overflows: SQLite fails the step with SQLITE_ERROR.
            let cursor = try db.fetchCursor("SELECT abs(id - 9223372036854775807 - 2) FROM t ORDER BY id")
            let error = thrownError { while try cursor.next() != nil {} } as? SQLiteError
            #expect(error?.code == .error)
            #expect(try cursor.next() == nil)
            #expect(try db.scalar(Int.self, "SELECT count(*) FROM t") == 4)
        }
    }
}
