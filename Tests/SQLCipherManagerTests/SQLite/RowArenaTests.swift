import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// The rows of one `fetchAll` packed side by side in shared blocks: each row still
/// reads, compares and hashes as its own, no block exceeds the limit a kept row may pin, and a
/// large row gets a block of its own.
@Suite struct RowArenaTests {
    private func filledManager(_ dir: TemporaryDirectory, rows: Int) throws -> DatabaseManager {
        let manager = try dir.createdManager(table: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB)")
        try manager.transactionSync { db in
            for id in 1...rows {
                try db.execute(
                    "INSERT INTO t VALUES (?, ?, ?, ?)", id, "name \(id) " + String(repeating: "x", count: id % 40), Double(id) / 4,
                    Data(repeating: UInt8(id % 256), count: id % 7))
            }
        }
        return manager
    }

    @Test func rowsOfOneFetchAllShareBlocksAndStayDistinct() throws {
        let dir = TemporaryDirectory()
        let manager = try filledManager(dir, rows: 2000)
        let rows = try manager.fetchAll("SELECT id, name, score, data FROM t ORDER BY id")
        #expect(rows.count == 2000)
        for (index, row) in rows.enumerated() {
            let id = index + 1
            #expect(row.value(0, as: Int.self) == id)
            #expect(row.value(1, as: String.self) == "name \(id) " + String(repeating: "x", count: id % 40))
            #expect(row.value(2, as: Double.self) == Double(id) / 4)
            #expect(row.value(3, as: Data.self) == Data(repeating: UInt8(id % 256), count: id % 7))
        }
        // Neighbours share a block at different offsets, yet are different rows.
        #expect(rows[10].storage.buffer === rows[11].storage.buffer)
        #expect(rows[10].storage.offset != rows[11].storage.offset)
        #expect(rows[10] != rows[11])
        #expect(Set(rows).count == rows.count)
        #expect(rows[10] == Row(columnNames: rows[10].columnNames, values: rows[10].values))
        // Many blocks, none beyond the limit a kept row may pin.
        let blocks = Set(rows.map { ObjectIdentifier($0.storage.buffer) })
        #expect(blocks.count > 1 && blocks.count < rows.count / 10)
        for row in rows {
            let size = RowStorage.size(count: row.count, byteCount: row.values.reduce(0) { $0 + Self.byteCount($1) })
            #expect(Int(row.storage.offset) + size <= RowArena.blockLimit)
        }
    }

    /// A row is its block's reference and its place in it (the names are in the block's
    /// header, once per block): 16 bytes in a `[Row]`, and every row of a query, in every
    /// block, has the same names.
    @Test func aRowIsSixteenBytesAndItsNamesLiveInItsBlock() throws {
        #expect(MemoryLayout<Row>.size == 16)
        let dir = TemporaryDirectory()
        let manager = try filledManager(dir, rows: 500)
        let rows = try manager.fetchAll("SELECT id AS n, name FROM t ORDER BY id")
        #expect(Set(rows.map { ObjectIdentifier($0.storage.buffer) }).count > 1)
        #expect(rows.allSatisfy { $0.columnNames == ["n", "name"] && $0["n"] != nil })
        let built = Row(columnNames: ["a", "b"], values: [.integer(1), .null])
        #expect(built.columnNames == ["a", "b"])
        #expect(built != Row(columnNames: ["a", "c"], values: [.integer(1), .null]))
    }

    @Test func aRowLargerThanAQuarterOfTheLimitGetsABlockOfItsOwn() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE t(id INTEGER PRIMARY KEY, data BLOB)")
        let big = Data(repeating: 7, count: RowArena.blockLimit / 4)
        try manager.execute("INSERT INTO t VALUES (1, x'01'), (2, ?), (3, x'03')", big)
        let rows = try manager.fetchAll("SELECT data FROM t ORDER BY id")
        #expect(rows.map { $0.value(0, as: Data.self) } == [Data([1]), big, Data([3])])
        #expect(rows[1].storage.offset == 0)
        #expect(rows[1].storage.buffer !== rows[0].storage.buffer)
        #expect(rows[1].storage.buffer !== rows[2].storage.buffer)
    }

    @Test func aFewRowsTakeASmallBlock() throws {
        let dir = TemporaryDirectory()
        let manager = try filledManager(dir, rows: 3)
        let rows = try manager.fetchAll("SELECT id, name FROM t ORDER BY id")
        // The first block is the first row's size: the first row does not share it.
        #expect(rows[0].storage.buffer !== rows[1].storage.buffer)
        #expect(rows.map { $0.value(0, as: Int.self) } == [1, 2, 3])
        #expect(try manager.fetchAll("SELECT id FROM t WHERE id > 100").isEmpty)
    }

    private static func byteCount(_ value: DatabaseValue) -> Int {
        switch value {
        case .text(let text): text.utf8.count
        case .blob(let data): data.count
        default: 0
        }
    }
}
