import CBaseline
import Foundation

// MARK: - Fixtures

/// The benchmark's files: fixture databases built once by the parent (with the C code, so the
/// Swift and C workloads read byte-identical data) and scratch files for each child.
struct Fixtures: Sendable {
    static let password = "correct horse battery staple"
    static let newPassword = "new correct horse battery staple"
    static let createSQL = """
        CREATE TABLE bench(id INTEGER PRIMARY KEY, t1 TEXT, t2 TEXT, t3 TEXT, t4 TEXT, \
        n1 INTEGER, n2 INTEGER, r REAL)
        """

    let directory: URL

    /// A fixture database of `rows` rows: encrypted with ``password`` or plaintext.
    func database(rows: Int, encrypted: Bool, pageSize: Int) -> URL {
        let name = "\(encrypted ? "enc" : "plain")-\(rows)-p\(pageSize).db"
        return directory.appendingPathComponent("fixtures").appendingPathComponent(name)
    }

    /// A scratch path for one child (removed before and after use).
    func scratch(_ name: String) -> URL {
        directory.appendingPathComponent("scratch-\(getpid())-\(name).db")
    }

    /// Builds the fixture when missing.
    func ensure(rows: Int, encrypted: Bool, pageSize: Int) throws {
        let url = database(rows: rows, encrypted: encrypted, pageSize: pageSize)
        guard !FileManager.default.fileExists(atPath: url.path) else { return }
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let staging = url.path + ".tmp"
        Self.remove(staging)
        try Self.withCOptions(encrypted: encrypted, pageSize: pageSize, cacheSize: 0) { options in
            guard let db = cb_open(staging, options, 1) else { throw BenchError.failed("fixture open") }
            defer { cb_close(db) }
            guard cb_create_table(db) == 0, cb_insert(db, Int32(rows)) == 0 else {
                throw BenchError.failed("fixture insert")
            }
        }
        try FileManager.default.moveItem(atPath: staging, toPath: url.path)
    }

    /// Copies a fixture to a scratch path and flushes it (untimed), for the workloads that change their input.
    func copyFixture(rows: Int, encrypted: Bool, pageSize: Int) throws -> String {
        let copy = scratch("source").path
        Self.remove(copy)
        let source = database(rows: rows, encrypted: encrypted, pageSize: pageSize).path
        try FileManager.default.copyItem(atPath: source, toPath: copy)
        // A database SQLite committed to is on disk; so is this copy before the timer starts,
        // or the first fsync of the file in the timed part (the crash-safe flows flush the
        // replaced file once) would write out the whole copy.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: copy))
        defer { try? handle.close() }
        try handle.synchronize()
        return copy
    }

    // MARK: - Helpers

    /// Calls `body` with C options keyed with ``password`` (or plaintext).
    static func withCOptions<T>(
        encrypted: Bool, pageSize: Int, cacheSize: Int, password: String = password, noMutex: Bool = false,
        _ body: (UnsafePointer<cb_options>) throws -> T
    ) rethrows -> T {
        let key = Array(password.utf8)
        return try key.withUnsafeBytes { bytes in
            var options = cb_options(
                key: encrypted ? bytes.baseAddress : nil, key_len: Int32(bytes.count),
                page_size: Int32(pageSize), cache_size: Int32(cacheSize), no_mutex: noMutex ? 1 : 0)
            return try body(&options)
        }
    }

    /// Removes a database file and its journals.
    static func remove(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}

enum BenchError: Error, CustomStringConvertible {
    case failed(String)
    /// The library does not offer the API yet: the job is reported "n/a", not as a failure.
    case unavailable(String)

    /// The exit status of a child that reports ``unavailable(_:)``.
    static let unavailableStatus: Int32 = 3

    var description: String {
        switch self {
        case .failed(let what): "failed: \(what)"
        case .unavailable(let what): "n/a: \(what)"
        }
    }
}
