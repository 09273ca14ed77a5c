import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// `Row`'s values in one block per row and the column names shared by the rows of a statement:
/// every value reads back as stored, and a statement re-prepared after a schema
/// change reports its new names.
@Suite struct RowStorageTests {
    private let samples: [DatabaseValue] = [
        .integer(.min), .integer(0), .integer(.max), .real(-0.5), .real(.infinity), .null,
        .text(""), .text("héllo 🔐"), .text("a\u{0}b"), .text(String(repeating: "x", count: 5000)),
        .blob(Data()), .blob(Data([0, 255, 7])), .blob(Data(repeating: 9, count: 70_000)),
    ]

    @Test func everyStorageClassRoundTripsThroughABuiltRow() {
        let names = samples.indices.map { "c\($0)" }
        let row = Row(columnNames: names, values: samples)
        #expect(row.count == samples.count)
        #expect(row.values == samples)
        for (index, value) in samples.enumerated() {
            #expect(row[index] == value)
            #expect(row["c\(index)"] == value)
        }
        #expect(Row(columnNames: [], values: []).values.isEmpty)
    }

    @Test func typedReadsConvertExactlyAsTheDatabaseValueInitializersDo() {
        let values = samples + [.text("12"), .text("2.5"), .real(2.0), .real(1e300), .integer(42)]
        let row = Row(columnNames: values.indices.map { "c\($0)" }, values: values)
        for (index, value) in values.enumerated() {
            // The fast paths (TEXT as String, INTEGER as Int64/Int, REAL as Double) and the others.
            #expect(row.value(index, as: String.self) == String(databaseValue: value))
            #expect(row.value(index, as: Int64.self) == Int64(databaseValue: value))
            #expect(row.value(index, as: Int.self) == Int(databaseValue: value))
            #expect(row.value(index, as: Double.self).map { $0.bitPattern } == Double(databaseValue: value).map { $0.bitPattern })
            #expect(row.value(index, as: Data.self) == Data(databaseValue: value))
            #expect(row.value(index, as: Int?.self) == Int?(databaseValue: value))
        }
    }

    @Test func fetchedRowsHoldWhatWasStoredAndEqualBuiltOnes() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE t(id INTEGER PRIMARY KEY, v)")
        try manager.transactionSync { db in
            for (index, value) in samples.enumerated() {
                try db.execute("INSERT INTO t VALUES (?, ?)", arguments: [DatabaseValue.integer(Int64(index)), value])
            }
        }
        let rows = try manager.fetchAll("SELECT v FROM t ORDER BY id")
        #expect(rows.map { $0[0] } == samples)
        let built = samples.map { Row(columnNames: ["v"], values: [$0]) }
        #expect(rows == built)
        #expect(Set(rows) == Set(built))
        // Rows are Sendable: read on another thread.
        let lengths = try onAnotherThread { rows.map { $0.value(0, as: Data.self)?.count ?? -1 } }
        #expect(lengths == samples.map { Data(databaseValue: $0)?.count ?? -1 })
    }

    /// `fetchOne` copies a row of up to 1 KiB in one pass through a scratch buffer and a larger
    /// one in two: every storage class, and texts just inside and just beyond the scratch.
    @Test func fetchOneCopiesSmallAndLargeRowsAlike() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE t(id INTEGER PRIMARY KEY, v, w)")
        // Two columns: 8 bytes of tags and 16 of cells before the bytes, in the scratch.
        let edge = Statement.scratchBytes - RowStorage.bytesOffset(count: 2)
        let texts = [edge - 1, edge, edge + 1].map { DatabaseValue.text(String(repeating: "é", count: $0 / 2) + ($0 % 2 == 1 ? "x" : "")) }
        let values = samples + texts
        try manager.transactionSync { db in
            for (index, value) in values.enumerated() {
                try db.execute(
                    "INSERT INTO t VALUES (?, ?, ?)",
                    arguments: [DatabaseValue.integer(Int64(index)), value, DatabaseValue.integer(Int64(index))])
            }
        }
        for (index, value) in values.enumerated() {
            let row = try #require(try manager.fetchOne("SELECT v, w FROM t WHERE id = ?", index))
            #expect(row[0] == value)
            #expect(row[1] == .integer(Int64(index)))
        }
    }

    @Test func theRowsOfAStatementShareTheirNamesUntilTheSchemaChangesThem() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE t(a, b)")
        try manager.execute("INSERT INTO t VALUES (1, 2)")
        try manager.withDatabase { db in
            #expect(try db.fetchOne("SELECT * FROM t")?.columnNames == ["a", "b"])
            // Same number of columns, other names: the cached statement is re-prepared by SQLite.
            try db.executeScript("DROP TABLE t; CREATE TABLE t(x, y); INSERT INTO t VALUES (3, 4)")
            let row = try #require(try db.fetchOne("SELECT * FROM t"))
            #expect(row.columnNames == ["x", "y"])
            #expect(row["y"] == .integer(4))
            try db.execute("ALTER TABLE t ADD COLUMN z")
            #expect(try db.fetchOne("SELECT * FROM t")?.columnNames == ["x", "y", "z"])
            #expect(try db.fetchAll("SELECT * FROM t").first?.columnNames == ["x", "y", "z"])
        }
    }
}

extension RowStorageTests {
    /// The schema changed by another connection: the cached statement is re-prepared inside
    /// the step with nothing else compiled on this connection since its last row (so only
    /// the compile count's view of the re-prepare itself can tell), through each path that
    /// copies a row: `fetchOne` variadic, `fetchOne` with a pack, `fetchAll` with named
    /// arguments (its names are read after the first step), `RowView.row`.
    @Test func rowsReportTheNamesOfASchemaAnotherConnectionChanged() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE t(a, b)")
        try manager.execute("INSERT INTO t VALUES (1, 2)")
        let other = dir.manager()
        try other.open(password: "secret")
        let scripts = [
            "DROP TABLE t; CREATE TABLE t(x, y); INSERT INTO t VALUES (3, 4)",
            "ALTER TABLE t ADD COLUMN z",
            "DROP TABLE t; CREATE TABLE t(p, q); INSERT INTO t VALUES (5, 6)",
            "DROP TABLE t; CREATE TABLE t(m, n); INSERT INTO t VALUES (7, 8)",
        ]
        let names = [["a", "b"], ["x", "y"], ["x", "y", "z"], ["p", "q"], ["m", "n"]]
        let paths: [(DatabaseManager) throws -> [String]?] = [
            { try $0.fetchOne("SELECT * FROM t")?.columnNames },
            { try $0.fetchOne("SELECT * FROM t WHERE 1 = ?", 1)?.columnNames },
            { try $0.fetchAll("SELECT * FROM t WHERE 1 = :one", arguments: ["one": 1]).first?.columnNames },
            { manager in
                try manager.withDatabase { db in
                    var seen: [String]?
                    try db.forEachRow("SELECT * FROM t") { seen = $0.row.columnNames }
                    return seen
                }
            },
        ]
        for (round, script) in scripts.enumerated() {
            let path = paths[round]
            #expect(try path(manager) == names[round])
            #expect(try path(manager) == names[round])  // unchanged count: the cached names
            try other.executeScript(script)
            #expect(try path(manager) == names[round + 1], "after: \(script)")
        }
        #expect(try manager.fetchOne("SELECT * FROM t")?["n"] == .integer(8))
    }
}

/// Runs `body` on a thread of its own and waits for its value.
private func onAnotherThread<Value>(_ body: @escaping @Sendable () throws -> Value) throws -> Value {
    let box = ResultBox<Value>()
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        box.set(Result(catching: body))
        done.signal()
    }
    done.wait()
    return try box.get()
}

/// A result handed from one thread to another, under a lock.
private final class ResultBox<Value>: @unchecked Sendable {
    // Written once by the worker thread before the semaphore is signalled, read after the
    // wait, both under `lock`: no concurrent access.
    private let lock = NSLock()
    private var result: Result<Value, any Error>?
    func set(_ value: Result<Value, any Error>) { lock.withLock { result = value } }
    func get() throws -> Value { try lock.withLock { result! }.get() }
}
