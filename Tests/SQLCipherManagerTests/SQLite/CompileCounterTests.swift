import Foundation
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// The connection's compile count: what lets a statement's rows skip reading and
/// comparing its column names while it cannot have been re-prepared.
@Suite struct CompileCounterTests {
    @Test func aPrepareCountsAndStepsOfACachedStatementDoNot() throws {
        let dir = TemporaryDirectory()
        let connection = try Connection(path: dir.file("plain.db").path, mode: .readWriteCreate)
        try connection.executeScript("CREATE TABLE t(a, b); INSERT INTO t VALUES (1, 2)")
        let statement = try connection.cachedStatement("SELECT * FROM t")
        let afterPrepare = connection.compiles.value
        #expect(afterPrepare > 0)
        for _ in 0..<3 {
            _ = try connection.cachedStatement("SELECT * FROM t")
            #expect(try statement.step())
            _ = statement.row()
        }
        #expect(connection.compiles.value == afterPrepare)
    }

    @Test func aReprepareAfterAnotherConnectionChangedTheSchemaCounts() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("plain.db").path
        let connection = try Connection(path: path, mode: .readWriteCreate)
        try connection.executeScript("CREATE TABLE t(a, b); INSERT INTO t VALUES (1, 2)")
        let statement = try connection.cachedStatement("SELECT * FROM t")
        #expect(try statement.step())
        #expect(statement.row().columnNames == ["a", "b"])
        statement.reset()  // its read lock released
        let before = connection.compiles.value

        // Another connection: nothing compiles on the first one but the re-prepare itself.
        let other = try Connection(path: path, mode: .readWrite)
        try other.executeScript("DROP TABLE t; CREATE TABLE t(x, y); INSERT INTO t VALUES (3, 4)")
        other.close()

        #expect(try statement.step())
        #expect(connection.compiles.value > before)
        let row = statement.row()
        #expect(row.columnNames == ["x", "y"])
        #expect(row["y"] == .integer(4))
    }
}
