// GRDBBench --child DIR WORKLOAD ROWS COUNT: one GRDB 7.8 job on SQLCipherBench's fixtures
// (DIR/fixtures/enc-ROWS-p0.db), printing `RESULT seconds peakRSSKiB checksum` like
// SQLCipherBench's children, with the measured part between two cb_measure_toggle() calls.
import CBaseline
import Foundation
import GRDB
import GRDBShim

let password = "correct horse battery staple"
let createSQL = "CREATE TABLE bench(id INTEGER PRIMARY KEY, t1 TEXT, t2 TEXT, t3 TEXT, t4 TEXT, n1 INTEGER, n2 INTEGER, r REAL)"
// The SQL, the per-row formatting and the lookup ids are SQLCipherBench's own (Rows.swift,
// linked into this target by prepare.sh), so both benchmarks do exactly the same work.
let insertSQL = Rows.insertSQL
let selectAllSQL = Rows.selectAllSQL
let lookupSQL = Rows.lookupSQL

func checksum(_ row: Row) -> Int64 {
    var sum: Int64 = row[0]
    for column in 1...4 { if let text: String = row[column] { sum += Int64(text.utf8.count) } }
    let n1: Int64 = row[5]
    let n2: Int64 = row[6]
    let r: Double = row[7]
    return sum + n1 + n2 + Int64(r)
}

func time(_ body: () throws -> Int64) rethrows -> (Double, Int64) {
    cb_measure_toggle()
    let start = DispatchTime.now().uptimeNanoseconds
    let sum = try body()
    let end = DispatchTime.now().uptimeNanoseconds
    cb_measure_toggle()
    return (Double(end - start) / 1e9, sum)
}

func queue(_ path: String) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.prepareDatabase { db in try db.usePassphrase(password) }
    return try DatabaseQueue(path: path, configuration: configuration)
}

func contentChecksum(_ path: String) -> Int64 {
    let key = Array(password.utf8)
    return key.withUnsafeBytes { bytes in
        var options = cb_options(key: bytes.baseAddress, key_len: Int32(bytes.count), page_size: 0, cache_size: 0, no_mutex: 0)
        guard let db = cb_open(path, &options, 0) else { return -1 }
        defer { cb_close(db) }
        return cb_content_checksum(db)
    }
}

func insert(_ directory: String, rows: Int, statement: Bool) throws -> (Double, Int64) {
    let path = directory + "/scratch-\(getpid())-grdb-insert.db"
    try? FileManager.default.removeItem(atPath: path)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let dbQueue = try queue(path)
    try dbQueue.write { db in try db.execute(sql: createSQL) }
    let (seconds, _) = try time {
        try dbQueue.write { db in
            if statement {
                let insert = try db.makeStatement(sql: insertSQL)
                for row in 1...rows {
                    try insert.execute(arguments: [
                        row, Rows.formattedText(row, 0), Rows.formattedText(row, 1), Rows.formattedText(row, 2),
                        Rows.formattedText(row, 3), Rows.int1(row), Rows.int2(row), Rows.real(row),
                    ])
                }
            } else {
                for row in 1...rows {
                    try db.execute(
                        sql: insertSQL,
                        arguments: [
                            row, Rows.formattedText(row, 0), Rows.formattedText(row, 1), Rows.formattedText(row, 2),
                            Rows.formattedText(row, 3), Rows.int1(row), Rows.int2(row), Rows.real(row),
                        ])
                }
            }
        }
        return 0
    }
    try dbQueue.close()
    return (seconds, contentChecksum(path))
}

func run(_ arguments: [String]) throws -> (Double, Int64) {
    let directory = arguments[0]
    let workload = arguments[1]
    let rows = Int(arguments[2]) ?? 0
    let count = Int(arguments[3]) ?? 0
    switch workload {
    case "insert-natural": return try insert(directory, rows: rows, statement: false)
    case "insert-statement": return try insert(directory, rows: rows, statement: true)
    default: break
    }
    let dbQueue = try queue(directory + "/fixtures/enc-\(rows)-p0.db")
    _ = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
    let ids = Rows.randomIDs(count: count, rows: rows)
    switch workload {
    case "read-cursor":
        return try time {
            var sum: Int64 = 0
            for _ in 0..<max(1, count) {
                try dbQueue.read { db in
                    let cursor = try Row.fetchCursor(db, sql: selectAllSQL)
                    while let row = try cursor.next() { sum += checksum(row) }
                }
            }
            return sum
        }
    case "fetchall":
        return try time {
            var sum: Int64 = 0
            for _ in 0..<max(1, count) {
                let all = try dbQueue.read { db in try Row.fetchAll(db, sql: selectAllSQL) }
                sum = all.reduce(sum) { $0 + checksum($1) }
            }
            return sum
        }
    case "lookups-read":
        return try time {
            try dbQueue.read { db in
                try ids.reduce(0) { sum, id in sum + (try Row.fetchOne(db, sql: lookupSQL, arguments: [id]).map(checksum) ?? 0) }
            }
        }
    case "lookups-read-statement":
        return try time {
            try dbQueue.read { db in
                let lookup = try db.cachedStatement(sql: lookupSQL)
                return try ids.reduce(0) { sum, id in sum + (try Row.fetchOne(lookup, arguments: [id]).map(checksum) ?? 0) }
            }
        }
    case "lookups-per-call":
        return try time {
            try ids.reduce(0) { sum, id in
                sum + (try dbQueue.read { db in try Row.fetchOne(db, sql: lookupSQL, arguments: [id]) }.map(checksum) ?? 0)
            }
        }
    default:
        throw DatabaseError(message: "unknown workload \(workload)")
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.first == "--child", arguments.count == 5 else {
    FileHandle.standardError.write(Data("usage: GRDBBench --child DIR WORKLOAD ROWS COUNT\n".utf8))
    exit(2)
}
grdb_shim_link()
do {
    let (seconds, sum) = try run(Array(arguments.dropFirst()))
    print("RESULT \(seconds) \(cb_peak_rss_kib()) \(sum)")
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
