import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// `insert(contentsOf:)`: one prepared statement for the whole batch, one transaction.
@Suite struct RecordBatchTests {
    @Test func aBatchInsertsEveryRecordInOrderAndReturnsTheirRowids() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        let notes = (1...50).map { Note(id: nil, title: "n\($0)", score: $0) }
        let ids = try manager.writeSync { try $0.insert(contentsOf: notes) }
        #expect(ids == Array(1...50))
        let stored = try manager.fetchAll(Note.self, "SELECT * FROM note ORDER BY id")
        #expect(stored == zip(notes, ids).map { Note(id: $1, title: $0.title, score: $0.score) })
        #expect(try manager.writeSync { try $0.insert(contentsOf: [Note]()) }.isEmpty)
    }

    @Test func aBatchCompilesItsStatementOnceWhateverItsSize() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        // The compiles of a batch of 2 and of 2,000 on a fresh connection each: equal, so no
        // record after the first prepares anything.
        func compiles(_ count: Int, offset: Int) throws -> UInt64 {
            try manager.reopen()
            return try manager.withDatabase { db in
                let before = db.connection.compiles.value
                try db.insert(contentsOf: (0..<count).map { EveryType.sample($0, id: Int64(offset + $0)) })
                return db.connection.compiles.value - before
            }
        }
        let small = try compiles(2, offset: 0)
        let large = try compiles(2000, offset: 10)
        #expect(small == large)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM every") == 2002)
    }

    @Test func aBatchInsideATransactionIsASavepointOfIt() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try manager.writeSync { db in
                try db.insert(contentsOf: [Note(id: 1, title: "a", score: 1)])
                throw Abort()
            }
        }
        try manager.writeSync { db in
            try db.insert(Note(id: 1, title: "kept", score: 1))
            #expect(throws: SQLiteError.self) {
                try db.insert(contentsOf: [Note(id: 2, title: "b", score: 2), Note(id: 1, title: "dup", score: 0)])
            }
        }
        #expect(try manager.dump("note") == ["INTEGER 1|TEXT kept|INTEGER 1"])
    }
}
