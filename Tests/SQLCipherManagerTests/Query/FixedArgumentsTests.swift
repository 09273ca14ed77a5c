import Foundation
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// `Database.execute` and `PreparedStatement.execute` with one to four values as plain generic
/// parameters, five to nine through the parameter pack: every arity binds each value at its
/// own index and checks its own count.
@Suite struct FixedArgumentsTests {
    /// The values `run` binds, in order: one of each built-in kind, a NULL and an empty text.
    static let expected: [DatabaseValue] = [
        .integer(1), .text("two, longer than fifteen bytes"), .real(3.5), .integer(4), .blob(Data([5, 0])),
        .integer(1), .null, .integer(8), .text(""),
    ]

    /// `INSERT` of `count` values into c1…c`count` of row `id`, with `extra` more placeholders.
    static func insertSQL(id: Int, count: Int, extra: Int = 0) -> String {
        let columns = (1...(count + extra)).map { "c\($0)" }.joined(separator: ", ")
        let marks = Array(repeating: "?", count: count + extra).joined(separator: ", ")
        return "INSERT INTO t(id, \(columns)) VALUES (\(id), \(marks))"
    }

    /// Runs `sql` with the first `count` values of ``expected`` through `db.execute`.
    static func run(_ count: Int, _ sql: String, _ db: Database) throws {
        let missing: String? = nil
        switch count {
        case 1: try db.execute(sql, 1)
        case 2: try db.execute(sql, 1, "two, longer than fifteen bytes")
        case 3: try db.execute(sql, 1, "two, longer than fifteen bytes", 3.5)
        case 4: try db.execute(sql, 1, "two, longer than fifteen bytes", 3.5, Int64(4))
        case 5: try db.execute(sql, 1, "two, longer than fifteen bytes", 3.5, Int64(4), Data([5, 0]))
        case 6: try db.execute(sql, 1, "two, longer than fifteen bytes", 3.5, Int64(4), Data([5, 0]), true)
        case 7: try db.execute(sql, 1, "two, longer than fifteen bytes", 3.5, Int64(4), Data([5, 0]), true, missing)
        case 8: try db.execute(sql, 1, "two, longer than fifteen bytes", 3.5, Int64(4), Data([5, 0]), true, missing, Int32(8))
        default: try db.execute(sql, 1, "two, longer than fifteen bytes", 3.5, Int64(4), Data([5, 0]), true, missing, Int32(8), "")
        }
    }

    /// Runs `insert` with the first `count` values of ``expected``.
    static func run(_ count: Int, _ insert: PreparedStatement) throws {
        let missing: String? = nil
        switch count {
        case 1: try insert.execute(1)
        case 2: try insert.execute(1, "two, longer than fifteen bytes")
        case 3: try insert.execute(1, "two, longer than fifteen bytes", 3.5)
        case 4: try insert.execute(1, "two, longer than fifteen bytes", 3.5, Int64(4))
        case 5: try insert.execute(1, "two, longer than fifteen bytes", 3.5, Int64(4), Data([5, 0]))
        case 6: try insert.execute(1, "two, longer than fifteen bytes", 3.5, Int64(4), Data([5, 0]), true)
        case 7: try insert.execute(1, "two, longer than fifteen bytes", 3.5, Int64(4), Data([5, 0]), true, missing)
        case 8: try insert.execute(1, "two, longer than fifteen bytes", 3.5, Int64(4), Data([5, 0]), true, missing, Int32(8))
        default: try insert.execute(1, "two, longer than fifteen bytes", 3.5, Int64(4), Data([5, 0]), true, missing, Int32(8), "")
        }
    }

    private func openManager(_ dir: TemporaryDirectory) throws -> DatabaseManager {
        let columns = (1...10).map { "c\($0)" }.joined(separator: ", ")
        return try dir.createdManager(table: "CREATE TABLE t(id INTEGER PRIMARY KEY, \(columns))")
    }

    /// The stored c1…c`count` of row `id`.
    private func stored(_ db: Database, id: Int, count: Int) throws -> [DatabaseValue] {
        let columns = (1...count).map { "c\($0)" }.joined(separator: ", ")
        return try #require(try db.fetchOne("SELECT \(columns) FROM t WHERE id = ?", id)).values
    }

    @Test func everyArityBindsEachValueAtItsIndex() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.withDatabase { db in
            for count in 1...9 {
                try Self.run(count, Self.insertSQL(id: count, count: count), db)
                try Self.run(count, try db.prepare(Self.insertSQL(id: 100 + count, count: count)))
                #expect(try stored(db, id: count, count: count) == Array(Self.expected.prefix(count)))
                #expect(try stored(db, id: 100 + count, count: count) == Array(Self.expected.prefix(count)))
            }
        }
    }

    @Test func everyArityChecksItsOwnCount() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.withDatabase { db in
            for count in 1...9 {
                let more = Self.insertSQL(id: count, count: count, extra: 1)
                let fewer = count > 1 ? Self.insertSQL(id: count, count: count - 1) : "INSERT INTO t(id) VALUES (\(count))"
                for sql in [more, fewer] {
                    let error = thrownError { try Self.run(count, sql, db) } as? SQLiteError
                    #expect(error?.code == .range, "db.execute, \(count) values: \(sql)")
                    let prepared = try db.prepare(sql)
                    let preparedError = thrownError { try Self.run(count, prepared) } as? SQLiteError
                    #expect(preparedError?.code == .range, "prepared, \(count) values: \(sql)")
                }
            }
            #expect(try db.scalar(Int.self, "SELECT count(*) FROM t") == 0)
        }
    }

    @Test func aClosedDatabaseThrowsMisuseAndNilOrExistentialsStillBind() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        let boxed: any DatabaseValueConvertible = "boxed"
        let db = try manager.withDatabase { db in
            try db.execute("INSERT INTO t(id, c1, c2) VALUES (?, ?, ?)", arguments: [1, nil, boxed])
            try db.prepare("INSERT INTO t(id, c1, c2) VALUES (?, ?, ?)").execute(2, boxed, 2.5)
            #expect(try stored(db, id: 1, count: 2) == [.null, .text("boxed")])
            #expect(try stored(db, id: 2, count: 2) == [.text("boxed"), .real(2.5)])
            return db
        }
        let insert = try manager.withDatabase { try $0.prepare("INSERT INTO t(id, c1) VALUES (?, ?)") }
        manager.close()
        #expect((thrownError { try db.execute("INSERT INTO t(id, c1) VALUES (?, ?)", 9, "x") } as? SQLiteError)?.code == .misuse)
        #expect((thrownError { try insert.execute(9, "x") } as? SQLiteError)?.code == .misuse)
    }
}
