import Foundation
import SQLCipherManager

// MARK: - Read workloads

extension SwiftWorkloads {
    /// A read workload, `job.passes` full passes over the fixture on one open manager.
    func read() throws -> Measured {
        let passes = job.passes
        let pass: (DatabaseManager) throws -> Int64 =
            switch job.workload {
            case .readView: Self.readView
            case .readBytes: Self.readBytes
            case .fetchAll: Self.fetchAll
            case .readLengths: Self.readLengths
            case .readCursor: Self.readCursor
            default: Self.readAll
            }
        return try onFixture { manager in
            try Measured.time { try (0..<passes).reduce(0) { sum, _ in sum + (try pass(manager)) } }
        }
    }

    /// A lookup workload: `job.count` random primary keys of the fixture (drawn before the
    /// timer), looked up the way `job.workload` names.
    func lookups() throws -> Measured {
        let ids = Rows.randomIDs(count: job.count, rows: job.rows)
        let lookup: (DatabaseManager, [Int64]) throws -> Int64 =
            switch job.workload {
            case .lookupsPrepared: Self.lookupsPrepared
            case .lookupsInRead: Self.lookupsInRead
            case .lookupsPreparedInRead: Self.lookupsPreparedInRead
            case .lookupsLengthsInRead: Self.lookupsLengthsInRead
            default: Self.lookups
            }
        return try onFixture { manager in try Measured.time { try lookup(manager, ids) } }
    }

    static func readAll(_ manager: DatabaseManager) throws -> Int64 {
        var sum: Int64 = 0
        try manager.withDatabase { db in
            try db.forEachRow(Rows.selectAllSQL) { row in sum += checksum(row.row) }
        }
        return sum
    }

    static func fetchAll(_ manager: DatabaseManager) throws -> Int64 {
        try manager.readSync { db in try db.fetchAll(Rows.selectAllSQL) }.reduce(0) { $0 + checksum($1) }
    }

    static func lookups(_ manager: DatabaseManager, _ ids: [Int64]) throws -> Int64 {
        var sum: Int64 = 0
        for id in ids {
            if let row = try manager.readSync({ db in try db.fetchOne(Rows.lookupSQL, id) }) { sum += checksum(row) }
        }
        return sum
    }

    static func readView(_ manager: DatabaseManager) throws -> Int64 {
        var sum: Int64 = 0
        try manager.withDatabase { db in
            try db.forEachRow(Rows.selectAllSQL) { row in sum += checksum(row) }
        }
        return sum
    }

    /// Like `readView`, but texts are read as UTF-8 bytes in place and copied into a scratch
    /// buffer — exactly what the C baseline does — instead of becoming `String`s.
    static func readBytes(_ manager: DatabaseManager) throws -> Int64 {
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 8)
        defer { scratch.deallocate() }
        var sum: Int64 = 0
        try manager.withDatabase { db in
            try db.forEachRow(Rows.selectAllSQL) { row in
                sum += row.int64(0) + row.int64(5) + row.int64(6) + Int64(row.double(7))
                for column in 1...4 {
                    sum += row.withUTF8(column) { bytes in
                        if let base = bytes.baseAddress, bytes.count <= 256 { scratch.copyMemory(from: base, byteCount: bytes.count) }
                        return Int64(bytes.count)
                    }
                }
            }
        }
        return sum
    }

    /// Texts taken as UTF-8 byte counts in place (`withUTF8`), no copy: the work of the seed's C
    /// baseline (`sqlite3_column_bytes` only).
    static func readLengths(_ manager: DatabaseManager) throws -> Int64 {
        var sum: Int64 = 0
        try manager.withDatabase { db in
            try db.forEachRow(Rows.selectAllSQL) { row in
                sum += row.int64(0) + row.int64(5) + row.int64(6) + Int64(row.double(7))
                for column in 1...4 { sum += row.withUTF8(column) { Int64($0.count) } }
            }
        }
        return sum
    }

    static func lookupsPrepared(_ manager: DatabaseManager, _ ids: [Int64]) throws -> Int64 {
        var sum: Int64 = 0
        try manager.withDatabase { db in
            let lookup = try db.prepare(Rows.lookupSQL)
            for id in ids {
                try lookup.forEachRow(id) { row in sum += checksum(row) }
            }
        }
        return sum
    }

    /// The checksum of a row read in place.
    static func checksum(_ row: RowView) -> Int64 {
        var sum = row.int64(0)
        for column in 1...4 {
            if let text = row.text(column) { sum += Int64(text.utf8.count) }
        }
        return sum + row.int64(5) + row.int64(6) + Int64(row.double(7))
    }

    /// The same checksum as the C side: integers, text lengths, truncated real.
    static func checksum(_ row: Row) -> Int64 {
        var sum = row.value(0, as: Int64.self) ?? 0
        for column in 1...4 {
            if let text = row.value(column, as: String.self) { sum += Int64(text.utf8.count) }
        }
        sum += (row.value(5, as: Int64.self) ?? 0) + (row.value(6, as: Int64.self) ?? 0)
        return sum + Int64(row.value(7, as: Double.self) ?? 0)
    }
}
