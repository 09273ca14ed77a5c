// GRDBBench --child DIR WORKLOAD ROWS COUNT: one GRDB 7.8 job on SQLCipherBench's fixtures
// (DIR/fixtures/enc-ROWS-p0.db), printing `RESULT seconds peakRSSKiB checksum` like
// SQLCipherBench's children, with the measured part between two cb_measure_toggle() calls.
import CBaseline
import Foundation
import GRDB
import GRDBShim

let password = "correct horse battery staple"
let insertSQL = "INSERT INTO bench(id, t1, t2, t3, t4, n1, n2, r) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
let selectAllSQL = "SELECT id, t1, t2, t3, t4, n1, n2, r FROM bench"
let lookupSQL = "SELECT id, t1, t2, t3, t4, n1, n2, r FROM bench WHERE id = ?"
let createSQL = "CREATE TABLE bench(id INTEGER PRIMARY KEY, t1 TEXT, t2 TEXT, t3 TEXT, t4 TEXT, n1 INTEGER, n2 INTEGER, r REAL)"
let letters = "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"

// The same per-row formatting as SQLCipherBench's Rows.formattedText.
func formattedText(_ row: Int, _ field: Int) -> String {
    let k = (row * (2 * field + 3) + field) % 1024
    let length = 12 + (k * 37 + field * 11) % 40
    let prefix = 5 + (k >= 10 ? 1 : 0) + (k >= 100 ? 1 : 0) + (k >= 1000 ? 1 : 0)
    let utf8 = letters.utf8
    let start = utf8.index(utf8.startIndex, offsetBy: (k + prefix) % 26)
    return "f\(field)k\(k):\(letters[start..<utf8.index(start, offsetBy: length - prefix)])"
}
func int1(_ row: Int) -> Int64 { Int64((row * 7919) % 100_000) }
func int2(_ row: Int) -> Int64 { Int64(row % 13) }
func real(_ row: Int) -> Double { Double(row) * 0.25 }

func randomIDs(count: Int, rows: Int) -> [Int64] {
    var state: UInt64 = 0x5EED_1234_ABCD_0001
    return (0..<count).map { _ in
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int64(z % UInt64(rows)) + 1
    }
}

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
                        row, formattedText(row, 0), formattedText(row, 1), formattedText(row, 2),
                        formattedText(row, 3), int1(row), int2(row), real(row),
                    ])
                }
            } else {
                for row in 1...rows {
                    try db.execute(
                        sql: insertSQL,
                        arguments: [
                            row, formattedText(row, 0), formattedText(row, 1), formattedText(row, 2),
                            formattedText(row, 3), int1(row), int2(row), real(row),
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
    let ids = randomIDs(count: count, rows: rows)
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
