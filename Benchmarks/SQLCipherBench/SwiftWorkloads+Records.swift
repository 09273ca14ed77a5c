import Foundation
import SQLCipherManager

// MARK: - Records

/// The seed's row as a `Codable` record: the columns of `bench`, named by the coding keys.
struct BenchRecord: Codable, TableRecord {
    static let databaseTableName = "bench"
    var id: Int
    var t1: String
    var t2: String
    var t3: String
    var t4: String
    var n1: Int64
    var n2: Int64
    var r: Double

    /// Row `row` of the seed's insert, its texts formatted as `insertFormattedPrepared` formats them.
    init(row: Int) {
        id = row
        t1 = Rows.formattedText(row, 0)
        t2 = Rows.formattedText(row, 1)
        t3 = Rows.formattedText(row, 2)
        t4 = Rows.formattedText(row, 3)
        n1 = Rows.int1(row)
        n2 = Rows.int2(row)
        r = Rows.real(row)
    }
}

extension SwiftWorkloads {
    /// One `db.insert(record)` per row: each row built as a record, then inserted.
    static func insertRecords(_ db: Database, count: Int) throws {
        for row in 1...count {
            try db.insert(BenchRecord(row: row))
        }
    }

    /// One `db.insert(contentsOf:)` over the rows built lazily: one statement for all.
    static func insertRecordsBatch(_ db: Database, count: Int) throws {
        try db.insert(contentsOf: (1...count).lazy.map { BenchRecord(row: $0) })
    }
}

extension Plan {
    /// `--only records`: 100k `Codable` records inserted in one transaction, per row and as one
    /// batch, against the same rows through the prepared-statement fast path (goal ≤ 1.15×).
    var records: Section {
        let n = sizes.last ?? 0
        let fast = Job(.insertFormattedPrepared, .swift, rows: n)
        let rows = [
            (
                "insert \(Self.label(n)) Codable records, 1 transaction: `db.insert(record)` per row vs `prepare` + `execute`",
                Job.Workload.insertRecords
            ),
            (
                "insert \(Self.label(n)) Codable records, 1 transaction: `db.insert(contentsOf:)` vs `prepare` + `execute`",
                .insertRecordsBatch
            ),
        ]
        return Section(
            key: "records", title: "Codable records vs the prepared-statement fast path (both format each row's texts)",
            labels: ["records", "prepared"],
            comparisons: rows.map { Comparison(name: $0.0, jobs: [Job($0.1, .swift, rows: n), fast], target: 1.15) })
    }
}
