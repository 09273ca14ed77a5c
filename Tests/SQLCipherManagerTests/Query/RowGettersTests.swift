import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Every getter a row has, with its exact signature: `Row` and `RowView` conform below, so a
/// getter missing from either (or typed differently) fails to compile.
private protocol RowGetters {
    var count: Int { get }
    var columnNames: [String] { get }
    var values: [DatabaseValue] { get }
    func isNull(_ index: Int) -> Bool
    func int64(_ index: Int) -> Int64
    func double(_ index: Int) -> Double
    func text(_ index: Int) -> String?
    func withUTF8<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R
    subscript(index: Int) -> DatabaseValue { get }
    subscript(name: String) -> DatabaseValue? { get }
    func value<T: DatabaseValueConvertible>(_ index: Int, as type: T.Type) -> T?
    func value<T: DatabaseValueConvertible>(_ name: String, as type: T.Type) -> T?
    func decode<T: DatabaseValueConvertible>(_ type: T.Type, at index: Int) throws -> T
    func decode<T: DatabaseValueConvertible>(_ type: T.Type, column name: String) throws -> T
    func decode<T: Decodable>(_ type: T.Type) throws -> T
}

extension Row: RowGetters {}
extension RowView: RowGetters {}

/// What one row says through each getter, in one comparable value.
private struct Readings: Equatable {
    var nulls: [Bool] = []
    var integers: [Int64] = []
    var doubles: [Double] = []
    var texts: [String?] = []
    var bytes: [[UInt8]] = []
    var values: [DatabaseValue] = []
    var named: [DatabaseValue?] = []

    init(_ row: some RowGetters) {
        for index in 0..<row.count {
            nulls.append(row.isNull(index))
            integers.append(row.int64(index))
            doubles.append(row.double(index))
            texts.append(row.text(index))
            bytes.append(row.withUTF8(index) { Array($0) })
        }
        values = row.values
        named = row.columnNames.map { row[$0] }
    }
}

/// `Row` (a copy) and `RowView` (in place) have the same getters with the same results: the
/// row's own conversions match SQLite's `sqlite3_column_*` for every storage class.
@Suite struct RowGettersTests {
    /// Values of every storage class, and texts that convert in SQLite's ways (leading numbers,
    /// signs, spaces), REALs as SQLite prints them. Not here: a text integer of more than 19
    /// digits, which SQLite versions convert differently (3.15 wraps it; a `Row` clamps it).
    static let literals = [
        "NULL", "0", "42", "-7", "9223372036854775807", "-9223372036854775808", "0.5", "-2.75", "2.0", "0.1",
        "1e20", "-1e-5", "123456789012.25", "1.0/3", "'12abc'", "'  -34 apples'", "'abc'", "''", "'3.5e2x'",
        "'+8'", "' 1.5'", "'.5'", "'5.'", "'héllo'",
        "x'3132'", "x''", "x'41e9'", "9.99e300", "-9.99e300", "4.9e-324",
    ]

    @Test func rowAndRowViewReadTheSameForEveryStorageClass() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE unused(x)")
        let sql = "SELECT " + Self.literals.enumerated().map { "\($1) AS c\($0)" }.joined(separator: ", ")
        try manager.withDatabase { db in
            let copy = try #require(try db.fetchOne(sql))
            var inPlace: Readings?
            try db.forEachRow(sql) { inPlace = Readings($0) }
            let copied = Readings(copy)
            let view = try #require(inPlace)
            for index in 0..<Self.literals.count {
                let literal = Self.literals[index]
                #expect(copied.integers[index] == view.integers[index], "int64 of \(literal)")
                #expect(copied.doubles[index] == view.doubles[index], "double of \(literal)")
                #expect(copied.texts[index] == view.texts[index], "text of \(literal)")
                #expect(copied.bytes[index] == view.bytes[index], "withUTF8 of \(literal)")
                #expect(copied.nulls[index] == view.nulls[index], "isNull of \(literal)")
            }
            #expect(copied == view)
        }
    }

    @Test func theCursorsRowsReadAsTheCopies() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b REAL, c BLOB)")
        try manager.execute("INSERT INTO t VALUES (1, '7 days', 1.5, x'00ff'), (2, NULL, -0.25, NULL)")
        try manager.withDatabase { db in
            let copies = try db.fetchAll("SELECT * FROM t ORDER BY id")
            let cursor = try db.fetchCursor("SELECT * FROM t ORDER BY id")
            var read: [Readings] = []
            while let row = try cursor.next() {
                read.append(Readings(row))
                #expect(try row.decode(Int64.self, column: "id") == copies[read.count - 1].decode(Int64.self, column: "id"))
            }
            let copied = copies.map(Readings.init)
            #expect(read.map(\.integers) == copied.map(\.integers))
            #expect(read.map(\.doubles) == copied.map(\.doubles))
            #expect(read.map(\.texts) == copied.map(\.texts))
            #expect(read.map(\.bytes) == copied.map(\.bytes))
            #expect(read.map(\.nulls) == copied.map(\.nulls))
            #expect(read.map(\.values) == copied.map(\.values))
            #expect(read.map(\.named) == copied.map(\.named))
        }
    }

    @Test func getterConversionsAreSQLitesOnKnownValues() throws {
        let row = Row(
            columnNames: ["a", "b", "c", "d", "e"],
            values: [.text(" -12x"), .real(2.0), .real(-1e300), .blob(Data("3.5".utf8)), .null])
        #expect(row.int64(0) == -12 && row.double(0) == -12)
        #expect(row.text(1) == "2.0" && row.int64(1) == 2)
        #expect(row.int64(2) == .min && row.text(2) == "-1.0e+300")
        #expect(row.double(3) == 3.5 && row.int64(3) == 3 && row.text(3) == "3.5")
        #expect(row.isNull(4) && row.int64(4) == 0 && row.text(4) == nil && row.withUTF8(4) { $0.count } == 0)
    }
}
