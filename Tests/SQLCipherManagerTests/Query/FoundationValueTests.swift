import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// `Date`, `UUID`, `URL`, `Decimal` and `Data` as statement arguments and column values,
/// checked against SQLite's own date functions.
@Suite struct FoundationValueTests {
    /// A database with one table `t(v)` in `dir` (which the test keeps alive).
    private func database(in dir: TemporaryDirectory) throws -> DatabaseManager {
        try dir.createdManager(table: "CREATE TABLE t(v)")
    }

    // MARK: - Date

    @Test func aDateIsStoredAsSQLiteTextInUTC() throws {
        let dir = TemporaryDirectory()
        let manager = try database(in: dir)
        let date = Date(timeIntervalSince1970: 1_700_000_000.123)
        try manager.execute("INSERT INTO t(v) VALUES (?)", date)
        #expect(try manager.scalar(String.self, "SELECT typeof(v) || ' ' || v FROM t") == "text 2023-11-14 22:13:20.123")
        // SQLite's date functions read it back to the same instant.
        #expect(try manager.scalar(String.self, "SELECT strftime('%s', v) FROM t") == "1700000000")
        #expect(try manager.scalar(Date.self, "SELECT v FROM t") == date)
    }

    @Test func datesBefore1970AndFarAheadAreWrittenInTheProlepticGregorianCalendar() {
        // SQLite's own 'unixepoch' is a millisecond off for these (59.501, 00.001): checked by hand.
        #expect(Date(timeIntervalSince1970: -0.5).databaseValue == .text("1969-12-31 23:59:59.500"))
        #expect(Date(timeIntervalSince1970: -62_135_596_800).databaseValue == .text("0001-01-01 00:00:00.000"))
        #expect(Date(timeIntervalSince1970: -14_182_940).databaseValue == .text("1969-07-20 20:17:40.000"))
        // SQLite 3.15's 'unixepoch' overflows this far out; its date functions still read the text.
        #expect(Date(timeIntervalSince1970: 253_402_300_799.999).databaseValue == .text("9999-12-31 23:59:59.999"))
    }

    @Test(arguments: [0, 951_782_400, 1_700_000_000.123, 1_700_000_000.9996, 4_102_444_799.999])
    func theTextIsWhatSQLiteWritesForTheSameInstant(seconds: Double) throws {
        let dir = TemporaryDirectory()
        let manager = try database(in: dir)
        let sqlite = try manager.scalar(String.self, "SELECT strftime('%Y-%m-%d %H:%M:%f', ?, 'unixepoch')", seconds)
        #expect(Date(timeIntervalSince1970: seconds).databaseValue == .text(try #require(sqlite)))
    }

    @Test(arguments: [
        "2023-11-14 22:13:20", "2023-11-14 22:13:20.5", "2023-11-14 22:13:20.123456", "2023-11-14T22:13:20",
        "2023-11-14 22:13", "2023-11-14T22:13", "2023-11-14", "22:13:20", "22:13", "22:13:20.250",
        "2023-11-14 22:13:20Z", "2023-11-14T23:13:20+01:00", "2023-11-14T17:13:20.000-05:00", "2023-11-14 22:13z",
        "2023-11-14 22:13:20 ", "2023-11-14 ", "1969-07-20 20:17:40", "0000-01-01 00:00:00", "2024-02-29 12:00:00",
    ])
    func everySQLiteTimeTextDecodesToTheInstantSQLiteReads(text: String) throws {
        let dir = TemporaryDirectory()
        let manager = try database(in: dir)
        // julianday() is SQLite's own reading of the text; 2440587.5 is 1970-01-01 00:00 UTC.
        let julian = try #require(try manager.scalar(Double.self, "SELECT julianday(?)", text))
        let expected = (julian - 2_440_587.5) * 86_400
        let decoded = try manager.decodeScalar(Date.self, "SELECT ?", text)
        #expect(abs(decoded.timeIntervalSince1970 - expected) < 0.001, "\(text): \(decoded) vs SQLite \(expected)")
    }

    @Test func numbersAreUnixTimeNotSecondsSince2001() throws {
        let dir = TemporaryDirectory()
        let manager = try database(in: dir)
        struct Event: Decodable { var d: Date }
        let fromReal = try #require(try manager.withDatabase { try $0.fetchOne(Event.self, "SELECT 1700000000.0 AS d", arguments: [:]) })
        #expect(fromReal.d == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try manager.decodeScalar(Date.self, "SELECT 1700000000") == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try manager.decodeScalar(Date.self, "SELECT -86400.25") == Date(timeIntervalSince1970: -86_400.25))
        // A whole row read as one Date (its first column), not through Date's own init(from:).
        #expect(try manager.fetchAll(Date.self, "SELECT 1700000000.0") == [Date(timeIntervalSince1970: 1_700_000_000)])
        let row = try #require(try manager.fetchAll("SELECT '2023-11-14 22:13:20'").first)
        #expect(try row.decode(Date.self) == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try #require(try manager.fetchAll("SELECT NULL").first).decode(URL?.self) == nil)
    }

    @Test func aDecodableRowReadsCurrentTimestamp() throws {
        let dir = TemporaryDirectory()
        let manager = try database(in: dir)
        struct Stamp: Decodable {
            var at: Date
            var never: Date?
        }
        let stamp = try #require(try manager.fetchAll(Stamp.self, "SELECT CURRENT_TIMESTAMP AS at, NULL AS never").first)
        #expect(abs(stamp.at.timeIntervalSinceNow) < 5)
        #expect(stamp.never == nil)
    }

    @Test(arguments: [
        "14/11/2023", "now", " 2023-11-14", "2023-13-01", "2023-11-14 24:00", "2023-11-14 22:13:20 +1", "2023-11-14x", "",
        "2023-11-14 22:13:20.",
    ])
    func otherTextIsAMismatchNamingTheColumn(text: String) throws {
        let dir = TemporaryDirectory()
        let manager = try database(in: dir)
        #expect(try manager.scalar(Date.self, "SELECT ?", text) == nil)
        let error = #expect(throws: SQLiteError.self) { try manager.decodeScalar(Date.self, "SELECT ? AS d", text) }
        #expect(error?.extendedCode == .mismatch)
        #expect(error?.message?.contains("column \"d\" (index 0) holds TEXT, which cannot be read as Date") == true)
    }

    @Test func blobsNaNAndInfinityAreNotDates() throws {
        #expect(Date(databaseValue: .blob(Data([1, 2]))) == nil)
        #expect(Date(databaseValue: .real(.nan)) == nil)
        #expect(Date(databaseValue: .real(.infinity)) == nil)
        #expect(Date(databaseValue: .null) == nil)
    }

    // MARK: - UUID

    @Test func aUUIDIsStoredAsSixteenBytesAndReadFromTextToo() throws {
        let dir = TemporaryDirectory()
        let manager = try database(in: dir)
        let id = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        try manager.execute("INSERT INTO t(v) VALUES (?)", id)
        #expect(
            try manager.scalar(String.self, "SELECT typeof(v) || length(v) || hex(v) FROM t") == "blob16E621E1F8C36C495A93FC0C247A3E6E5F")
        #expect(try manager.decodeScalar(UUID.self, "SELECT v FROM t") == id)
        #expect(try manager.decodeScalar(UUID.self, "SELECT 'e621e1f8-c36c-495a-93fc-0c247a3e6e5f'") == id)
        #expect(try manager.decodeScalar(UUID.self, "SELECT hex(v) FROM t") == id)
        #expect(try manager.scalar(UUID.self, "SELECT X'E621E1F8C36C495A93FC0C247A3E6E'") == nil)
        #expect(try manager.scalar(UUID.self, "SELECT 'E621E1F8C36C495A93FC0C247A3E6E5G'") == nil)
        #expect(try manager.scalar(UUID.self, "SELECT 42") == nil)
    }

    // MARK: - URL, Decimal, Data

    @Test func aURLIsStoredAsItsText() throws {
        let dir = TemporaryDirectory()
        let manager = try database(in: dir)
        let url = try #require(URL(string: "https://example.com/a%20b?c=d#e"))
        try manager.execute("INSERT INTO t(v) VALUES (?)", url)
        #expect(try manager.scalar(String.self, "SELECT typeof(v) || ' ' || v FROM t") == "text https://example.com/a%20b?c=d#e")
        #expect(try manager.decodeScalar(URL.self, "SELECT v FROM t") == url)
        #expect(try manager.scalar(URL.self, "SELECT ''") == nil)
        #expect(try manager.scalar(URL.self, "SELECT X'00'") == nil)
    }

    @Test func aDecimalIsStoredAsTextWithEveryDigit() throws {
        let dir = TemporaryDirectory()
        let manager = try database(in: dir)
        let price = try #require(Decimal(string: "12345678901234567890.123456789", locale: Locale(identifier: "en_US_POSIX")))
        try manager.execute("INSERT INTO t(v) VALUES (?)", price)
        #expect(try manager.scalar(String.self, "SELECT typeof(v) || ' ' || v FROM t") == "text 12345678901234567890.123456789")
        #expect(try manager.decodeScalar(Decimal.self, "SELECT v FROM t") == price)
        #expect(try manager.decodeScalar(Decimal.self, "SELECT ' -0.000125 '") == Decimal(sign: .minus, exponent: -6, significand: 125))
        #expect(try manager.decodeScalar(Decimal.self, "SELECT 42") == 42)
        #expect(try manager.decodeScalar(Decimal.self, "SELECT 0.1") == Decimal(sign: .plus, exponent: -1, significand: 1))
        #expect(try manager.decodeScalar(Decimal.self, "SELECT '1.5e3'") == 1500)
        for bad in ["12abc", "", ".", "1e", "1,5", "--1"] {
            #expect(try manager.scalar(Decimal.self, "SELECT ?", bad) == nil, "\(bad)")
        }
    }

    @Test func dataIsABlobAndAnEmptyOneIsNotNull() throws {
        let dir = TemporaryDirectory()
        let manager = try database(in: dir)
        try manager.execute("INSERT INTO t(v) VALUES (?)", Data([0, 1, 2]))
        try manager.execute("INSERT INTO t(v) VALUES (?)", Data())
        #expect(try manager.fetchAll(String.self, "SELECT typeof(v) || length(v) FROM t ORDER BY rowid") == ["blob3", "blob0"])
        #expect(try manager.decodeScalar(Data.self, "SELECT v FROM t ORDER BY rowid") == Data([0, 1, 2]))
    }

    // MARK: - Every way in and out

    private struct Entry: Decodable, Equatable {
        var at: Date
        var id: UUID
        var link: URL
        var price: Decimal
        var raw: Data
        var due: Date?
    }

    private static let entry = Entry(
        at: Date(timeIntervalSince1970: 1_700_000_000.5), id: UUID(), link: URL(string: "file:///tmp/x")!,
        price: Decimal(string: "9.99")!, raw: Data([7]), due: nil)

    private func makeTable(_ manager: DatabaseManager) throws {
        try manager.execute("CREATE TABLE entry(at, id, link, price, raw, due)")
    }

    @Test func namedParametersBindEveryType() throws {
        let dir = TemporaryDirectory()
        let manager = try database(in: dir)
        try makeTable(manager)
        let e = Self.entry
        try manager.withDatabase { db in
            try db.execute(
                "INSERT INTO entry VALUES (:at, :id, $link, @price, :raw, :due)",
                arguments: ["at": e.at, "id": e.id, "link": e.link, "price": e.price, "raw": e.raw, "due": e.due])
            #expect(try db.fetchOne(Entry.self, "SELECT * FROM entry WHERE id = :id", arguments: ["id": e.id]) == e)
        }
    }

    @Test func positionalFixedAndPackArgumentsBindEveryType() throws {
        let dir = TemporaryDirectory()
        let manager = try database(in: dir)
        try makeTable(manager)
        let e = Self.entry
        try manager.withDatabase { db in
            try db.execute("INSERT INTO entry VALUES (?, ?, ?, ?, ?, ?)", e.at, e.id, e.link, e.price, e.raw, e.due)
            let statement = try db.prepare("INSERT INTO entry VALUES (?, ?, ?, ?, ?, ?)")
            try statement.execute(e.at, e.id, e.link, e.price, e.raw, e.due)
            let variadic: [(any DatabaseValueConvertible)?] = [e.at, e.id, e.link, e.price, e.raw, e.due]
            try db.execute("INSERT INTO entry VALUES (?, ?, ?, ?, ?, ?)", arguments: StatementArguments(variadic))
            try db.execute(
                "INSERT INTO entry VALUES (?, ?, ?, ?, ?, ?)", arguments: StatementArguments(variadic.map { $0?.databaseValue ?? .null }))
            #expect(try db.fetchAll(Entry.self, "SELECT * FROM entry", arguments: [:]) == [e, e, e, e])
        }
    }

    @Test func typedGettersReadEveryType() throws {
        let dir = TemporaryDirectory()
        let manager = try database(in: dir)
        try makeTable(manager)
        let e = Self.entry
        try manager.execute("INSERT INTO entry VALUES (?, ?, ?, ?, ?, ?)", e.at, e.id, e.link, e.price, e.raw, e.due)
        let row = try #require(try manager.fetchAll("SELECT * FROM entry").first)
        #expect(row.value(0, as: Date.self) == e.at)
        #expect(try row.decode(UUID.self, column: "id") == e.id)
        #expect(try row.decode(URL.self, at: 2) == e.link)
        #expect(row.value("price", as: Decimal.self) == e.price)
        #expect(try row.decode(Date?.self, column: "due") == nil)
        #expect(try row.decode(Entry.self) == e)
        try manager.withDatabase { db in
            try db.forEachRow("SELECT * FROM entry") { view in
                #expect(view.value(0, as: Date.self) == e.at)
                #expect((try? view.decode(UUID.self, at: 1)) == e.id)
            }
            let cursor = try db.fetchCursor("SELECT * FROM entry")
            let first = try #require(try cursor.next())
            #expect(try first.decode(Date.self, at: 0) == e.at)
            #expect(try first.decode(Entry.self) == e)
        }
    }
}
