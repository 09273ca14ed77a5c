import Foundation
import SQLCipherManager
import TestSupport
import Testing

/// `DatabaseValueConvertible.bind(to:)` and `DatabaseValueBinder`: every built-in type
/// binds itself directly, a custom type keeps the `databaseValue` default or forwards, through
/// both `PreparedStatement` and the variadic calls. Public API only.
@Suite struct DatabaseValueBinderTests {
    // MARK: - Fixtures

    /// A custom type that only provides `databaseValue`: the default `bind(to:)`.
    struct Celsius: DatabaseValueConvertible, Equatable {
        var degrees: Double
        var databaseValue: DatabaseValue { .real(degrees) }
        init(_ degrees: Double) { self.degrees = degrees }
        init?(databaseValue: DatabaseValue) {
            guard let degrees = Double(databaseValue: databaseValue) else { return nil }
            self.degrees = degrees
        }
    }

    /// A custom type that forwards `bind(to:)` to its raw value, as the documentation shows.
    struct Tag: DatabaseValueConvertible, Equatable {
        var name: String
        var databaseValue: DatabaseValue { .text(name) }
        init(_ name: String) { self.name = name }
        init?(databaseValue: DatabaseValue) {
            guard let name = String(databaseValue: databaseValue) else { return nil }
            self.name = name
        }
        func bind(to binder: DatabaseValueBinder) throws { try name.bind(to: binder) }
    }

    /// One row of every kind of argument, and the values SQLite must hold for it.
    static let expected: [DatabaseValue] = [
        .integer(-7), .integer(Int64(Int32.min)), .integer(Int64.max), .integer(1), .integer(0),
        .real(2.5), .text(""), .text("a\u{0}b é 🔐"), .blob(Data()), .blob(Data([0, 1, 0xff])),
        .null, .integer(9), .null, .text("x"), .real(-1.5), .text("tag"), .blob(Data([7])),
    ]

    private static let columns = (1...17).map { "c\($0)" }
    private static let createSQL = "CREATE TABLE v(id INTEGER PRIMARY KEY, \(columns.joined(separator: ", ")))"
    private static let insertSQL =
        "INSERT INTO v(id, \(columns.joined(separator: ", "))) VALUES (?, \(columns.map { _ in "?" }.joined(separator: ", ")))"

    private func openManager(_ dir: TemporaryDirectory) throws -> DatabaseManager {
        let manager = dir.manager()
        try manager.create(password: "secret")
        try manager.execute(Self.createSQL)
        return manager
    }

    /// The stored values of row `id`, with their storage classes.
    private func stored(_ manager: DatabaseManager, id: Int) throws -> [DatabaseValue] {
        let row = try #require(try manager.fetchOne("SELECT \(Self.columns.joined(separator: ", ")) FROM v WHERE id = ?", id))
        return (0..<Self.columns.count).map { row[$0] }
    }

    // MARK: - Tests

    @Test func preparedStatementsBindEveryBuiltInAndCustomTypeDirectly() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.transactionSync { db in
            let insert = try db.prepare(Self.insertSQL)
            try insert.execute(
                1, -7, Int32.min, Int64.max, true, false, 2.5, "", "a\u{0}b é 🔐", Data(), Data([0, 1, 0xff]),
                Int?.none, Int?.some(9), DatabaseValue.null, DatabaseValue.text("x"), Celsius(-1.5), Tag("tag"),
                Data?.some(Data([7])))
        }
        #expect(try stored(manager, id: 1) == Self.expected)
    }

    @Test func variadicCallsBindEveryBuiltInAndCustomTypeDirectly() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.execute(
            Self.insertSQL,
            2, -7, Int32.min, Int64.max, true, false, 2.5, "", "a\u{0}b é 🔐", Data(), Data([0, 1, 0xff]),
            Int?.none, Int?.some(9), DatabaseValue.null, DatabaseValue.text("x"), Celsius(-1.5), Tag("tag"),
            Data?.some(Data([7])))
        #expect(try stored(manager, id: 2) == Self.expected)
        #expect(try manager.scalar(Celsius.self, "SELECT c15 FROM v WHERE id = ?", 2) == Celsius(-1.5))
        #expect(try manager.scalar(Tag.self, "SELECT id FROM v WHERE c16 = ?", Tag("tag")) == Tag("2"))
    }

    @Test func customTypesBindAsLookupArgumentsOfAPreparedStatement() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.execute("INSERT INTO v(id, c15, c16) VALUES (1, -1.5, 'tag'), (2, 3.0, 'other')")
        try manager.withDatabase { db in
            let byTag = try db.prepare("SELECT id FROM v WHERE c16 = ? AND c15 < ?")
            #expect(try byTag.fetchOne(Tag("tag"), Celsius(0))?[0] == .integer(1))
            #expect(try byTag.fetchOne(Tag("other"), Celsius(0)) == nil)
            var ids: [Int64] = []
            try byTag.forEachRow(Tag("other"), Celsius(10)) { ids.append($0.int64(0)) }
            #expect(ids == [2])
        }
    }

    /// A custom type that keeps the binder it was given (which it should not do).
    final class KeepsItsBinder: DatabaseValueConvertible, @unchecked Sendable {
        // @unchecked: used by one test, on one thread.
        var kept: DatabaseValueBinder?
        var databaseValue: DatabaseValue { .integer(1) }
        init() {}
        init?(databaseValue: DatabaseValue) { nil }
        func bind(to binder: DatabaseValueBinder) throws {
            kept = binder
            try Int64(1).bind(to: binder)
        }
    }

    @Test func aBinderKeptPastItsCallThrowsMisuseOnceTheDatabaseIsClosed() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        let keeper = KeepsItsBinder()
        try manager.execute("INSERT INTO v(id) VALUES (?)", keeper)
        let binder = try #require(keeper.kept)
        manager.close()
        // The statement it bound is finalized: no C call is made on its freed handle.
        #expect {
            try Int64(2).bind(to: binder)
        } throws: { error in
            (error as? SQLiteError)?.extendedCode == .misuse
        }
        #expect(throws: SQLiteError.self) { try "text".bind(to: binder) }
    }
}
