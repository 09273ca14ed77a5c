import Foundation
import SQLCipherManager

// MARK: - The seed's workloads

extension SwiftWorkloads {
    /// The seed's insert through the convenience API: each row's texts formatted per row with
    /// string interpolation (`Rows.formattedText`), then `db.execute(sql, values…)`.
    static func insertFormatted(_ db: Database, count: Int) throws {
        for row in 1...count {
            try db.execute(
                Rows.insertSQL, row, Rows.formattedText(row, 0), Rows.formattedText(row, 1),
                Rows.formattedText(row, 2), Rows.formattedText(row, 3), Rows.int1(row), Rows.int2(row), Rows.real(row))
        }
    }

    /// The seed's insert through one `PreparedStatement`: texts formatted per row, `execute(values…)`.
    static func insertFormattedPrepared(_ db: Database, count: Int) throws {
        let insert = try db.prepare(Rows.insertSQL)
        for row in 1...count {
            try insert.execute(
                row, Rows.formattedText(row, 0), Rows.formattedText(row, 1), Rows.formattedText(row, 2),
                Rows.formattedText(row, 3), Rows.int1(row), Rows.int2(row), Rows.real(row))
        }
    }

    /// The natural way to read many rows: a lazy `RowCursor` inside `read { }`, typed
    /// getters, texts as `String`s.
    static func readCursor(_ manager: DatabaseManager) throws -> Int64 {
        try manager.readSync { db in
            let cursor = try db.fetchCursor(Rows.selectAllSQL)
            var sum: Int64 = 0
            while let row = try cursor.next() {
                sum += row.int64(0) + row.int64(5) + row.int64(6) + Int64(row.double(7))
                for column in 1...4 {
                    if let text = row.text(column) { sum += Int64(text.utf8.count) }
                }
            }
            return sum
        }
    }

    /// The formatting alone, no database: every text of rows 1...count built as `insertFormatted`
    /// builds it; the sum of their lengths.
    static func formatAll(count: Int) -> Int64 {
        var sum = 0
        for row in 1...count {
            for field in 0..<4 { sum += Rows.formattedText(row, field).utf8.count }
        }
        return Int64(sum)
    }

    /// Lookups through one `PreparedStatement` inside one `read { }`, each row read in place.
    static func lookupsPreparedInRead(_ manager: DatabaseManager, _ ids: [Int64]) throws -> Int64 {
        try manager.readSync { db in
            let lookup = try db.prepare(Rows.lookupSQL)
            var sum: Int64 = 0
            for id in ids {
                try lookup.forEachRow(id) { row in sum += checksum(row) }
            }
            return sum
        }
    }

    /// ``lookupsPreparedInRead(_:_:)`` with each text taken as its UTF-8 byte count in place
    /// (`withUTF8`) instead of a `String`: what the C side does (`sqlite3_column_bytes`).
    static func lookupsLengthsInRead(_ manager: DatabaseManager, _ ids: [Int64]) throws -> Int64 {
        try manager.readSync { db in
            let lookup = try db.prepare(Rows.lookupSQL)
            var sum: Int64 = 0
            for id in ids {
                try lookup.forEachRow(id) { row in
                    sum += row.int64(0) + row.int64(5) + row.int64(6) + Int64(row.double(7))
                    for column in 1...4 { sum += row.withUTF8(column) { Int64($0.count) } }
                }
            }
            return sum
        }
    }
}
