import Foundation
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// The blocks of a connection's earlier `fetchAll`s, reused once no row holds them:
/// a later `fetchAll` reads its own values and names in them, a row still kept is never
/// written over, and the connection lets them go when it closes.
@Suite struct RowBlockPoolTests {
    private func filledManager(_ dir: TemporaryDirectory, rows: Int) throws -> DatabaseManager {
        let manager = try dir.createdManager(table: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, n INTEGER)")
        try manager.transactionSync { db in
            for id in 1...rows {
                try db.execute("INSERT INTO t VALUES (?, ?, ?)", id, "name \(id) \(String(repeating: "y", count: id % 50))", -id)
            }
        }
        return manager
    }

    private static func blocks(_ rows: [Row]) -> Set<ObjectIdentifier> { Set(rows.map { ObjectIdentifier($0.storage.buffer) }) }

    @Test func aLaterFetchAllReusesTheBlocksOfDroppedRowsWithItsOwnNamesAndValues() throws {
        let dir = TemporaryDirectory()
        let manager = try filledManager(dir, rows: 3000)
        try manager.withDatabase { db in
            var first: Set<ObjectIdentifier> = []
            do {
                let rows = try db.fetchAll("SELECT id, name, n FROM t ORDER BY id")
                first = Self.blocks(rows)
            }
            #expect(db.connection.rowBlocks.count > 10)
            // Other names and other values, in the same blocks.
            let again = try db.fetchAll("SELECT n AS minus, name AS label, id AS key FROM t ORDER BY id DESC")
            #expect(!Self.blocks(again).isDisjoint(with: first))
            for (index, row) in again.enumerated() {
                let id = 3000 - index
                #expect(row.columnNames == ["minus", "label", "key"])
                #expect(row.value(0, as: Int.self) == -id)
                #expect(row.value(1, as: String.self) == "name \(id) \(String(repeating: "y", count: id % 50))")
                #expect(row["key"] == .integer(Int64(id)))
            }
        }
    }

    @Test func aBlockAKeptRowHoldsIsNeverWrittenOver() throws {
        let dir = TemporaryDirectory()
        let manager = try filledManager(dir, rows: 3000)
        try manager.withDatabase { db in
            let kept = try db.fetchAll("SELECT id, name, n FROM t ORDER BY id")[1500]
            for _ in 0..<3 {
                let rows = try db.fetchAll("SELECT n, name, id FROM t ORDER BY id DESC")
                #expect(!Self.blocks(rows).contains(ObjectIdentifier(kept.storage.buffer)))
            }
            #expect(kept.columnNames == ["id", "name", "n"])
            #expect(kept.value(0, as: Int.self) == 1501)
            #expect(kept.value(1, as: String.self) == "name 1501 \(String(repeating: "y", count: 1501 % 50))")
            #expect(kept.value(2, as: Int.self) == -1501)
        }
    }

    @Test func thePoolKeepsAtMostItsLimitAndLetsGoOnClose() throws {
        let pool = RowBlockPool()
        var held: [RowStorage.Buffer] = []
        let most = RowBlockPool.byteLimit / RowArena.blockLimit
        for _ in 0..<(most + 5) { held.append(pool.take(names: ["a"])) }
        #expect(pool.count == most)
        held = []
        pool.rewind()
        #expect(pool.take(names: ["b"]).header == ["b"])
        pool.drain()
        #expect(pool.count == 0)

        let dir = TemporaryDirectory()
        let manager = try filledManager(dir, rows: 500)
        let connection = try manager.withDatabase { db in
            _ = try db.fetchAll("SELECT id, name, n FROM t")
            return db.connection
        }
        #expect(connection.rowBlocks.count > 0)
        manager.close()
        #expect(connection.rowBlocks.count == 0)
    }
}
