import Foundation
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

// MARK: - Independent clients

/// The clients the interop tests check our files against, and how to find them.
///
/// - Python's `sqlcipher3` (PyPI `sqlcipher3-binary`, SQLCipher 4.x) in the repository's
///   `.venv`, made by `scripts/ensure-interop-venv.sh`, or the interpreter in
///   `SCM_INTEROP_PYTHON`; the same interpreter's standard `sqlite3` is stock SQLite.
/// - The Debian `sqlcipher` command-line shell of the linked SQLCipher's version, installed by
///   `scripts/ensure-deps.sh`.
///
/// `make test` sets `SCM_REQUIRE_INTEROP=1` after installing both, so there a missing client
/// fails the test. A plain `swift test` on a machine without them skips the tests that need
/// them, with the reason.
enum Interop {
    static let environment = ProcessInfo.processInfo.environment
    static let isRequired = environment["SCM_REQUIRE_INTEROP"] == "1"

    /// The repository root (this file is Tests/SQLCipherManagerTests/Support/Interop.swift).
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let pythonScript = repository.appendingPathComponent("Tests/Interop/sqlcipher_client.py")

    /// A Python that can `import sqlcipher3`, or `nil`.
    static let python: URL? = {
        let candidates: [String?] = [environment["SCM_INTEROP_PYTHON"], repository.appendingPathComponent(".venv/bin/python").path]
        return candidates.compactMap { $0 }.map { URL(fileURLWithPath: $0) }.first { url in
            FileManager.default.isExecutableFile(atPath: url.path)
                && (try? runProcess(url, ["-c", "import sqlcipher3"]).status) == 0
        }
    }()

    /// The `sqlcipher` shell of the linked SQLCipher's version, or `nil`: `SCM_SQLCIPHER_SHELL`
    /// (the Makefile's `SQLCIPHER=3` leg sets it to Debian's 3.4.1 shell), else the system's.
    static let sqlcipherShell: URL? = [
        environment["SCM_SQLCIPHER_SHELL"], "/usr/bin/sqlcipher", "/usr/local/bin/sqlcipher", "/opt/homebrew/bin/sqlcipher",
    ]
    .compactMap { $0 }.map { URL(fileURLWithPath: $0) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// The `sqlcipher` shell of the other major version, or `nil`: with 4.x linked, Debian 12's
    /// 3.4.1 (`SCM_SQLCIPHER3_SHELL`, else the one `scripts/ensure-deps.sh` unpacks into
    /// `.build/sqlcipher3`); with 3.x linked, the system's 4.x (`SCM_SQLCIPHER4_SHELL`, else
    /// `/usr/bin/sqlcipher`). Only a shell that reports the other major version is returned.
    static let otherVersionShell: URL? = {
        let candidates: [String?] =
            CipherFormat.linkedMajor >= 4
            ? [environment["SCM_SQLCIPHER3_SHELL"], repository.appendingPathComponent(".build/sqlcipher3/root/usr/bin/sqlcipher").path]
            : [environment["SCM_SQLCIPHER4_SHELL"], "/usr/bin/sqlcipher", "/usr/local/bin/sqlcipher"]
        return candidates.compactMap { $0 }.map { URL(fileURLWithPath: $0) }.first { url in
            FileManager.default.isExecutableFile(atPath: url.path)
                && shellCipherVersion(url).map { ($0.major >= 4) != (CipherFormat.linkedMajor >= 4) } == true
        }
    }()

    /// The SQLCipher version a `sqlcipher` shell runs (`PRAGMA cipher_version` in memory).
    static func shellCipherVersion(_ shell: URL) -> SQLCipherVersion? {
        let output = try? runProcess(shell, ["-batch", "-init", "/dev/null", ":memory:"], input: Data("PRAGMA cipher_version;\n".utf8))
        return output.flatMap { SQLCipherVersion(parsing: $0.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// The client, or a failure (under `make test`) or a skip (elsewhere) that says how to get it.
    static func require(_ client: URL?, _ what: String) throws -> URL {
        if let client { return client }
        let reason = "\(what) was not found; `make test` installs it (scripts/ensure-deps.sh, scripts/ensure-interop-venv.sh)"
        if isRequired {
            Issue.record("\(reason), but SCM_REQUIRE_INTEROP=1")
            throw Missing()
        }
        try Test.cancel("skipped: \(reason)")
    }

    struct Missing: Error {}
}

// MARK: - File formats

/// What another SQLCipher client must be told to read a file the linked SQLCipher wrote.
///
/// New files use the linked library's defaults: the 4.x format on 4.x (4096-byte pages,
/// PBKDF2-HMAC-SHA512, HMAC-SHA512), the SQLCipher 3 format on 3.x (1024-byte pages, SHA-1).
/// A 4.x client reads a 3-format file after `PRAGMA cipher_compatibility = 3`; a 3.x client
/// reads only 3-format files and ignores that pragma. Either way the KDF iterations and a
/// page size other than the format's must be given.
enum CipherFormat {
    /// The major version of the linked SQLCipher, read at run time.
    static let linkedMajor = LinkedLibrary.cipherVersion?.major ?? 4

    /// The pragmas, run right after the key, with which a client of major version `client`
    /// reads a file written in the format of major version `format` (ours unless given) with
    /// `kdfIterations` and `pageSize` (`nil`: the format's own).
    static func pragmas(client: Int, format: Int = linkedMajor, kdfIterations: Int? = 4000, pageSize: Int? = nil) -> [String] {
        precondition(client >= 4 || format < 4, "a SQLCipher \(client) client cannot read the SQLCipher \(format) format")
        var list: [String] = []
        if client >= 4, format < 4 { list.append("PRAGMA cipher_compatibility = \(format)") }
        if let pageSize { list.append("PRAGMA cipher_page_size = \(pageSize)") }
        if let kdfIterations { list.append("PRAGMA kdf_iter = \(kdfIterations)") }
        return list
    }

    /// The same, as the lines of a shell script of the linked version.
    static func shellPragmas(kdfIterations: Int? = 4000, pageSize: Int? = nil) -> [String] {
        pragmas(client: linkedMajor, kdfIterations: kdfIterations, pageSize: pageSize).map { $0 + ";" }
    }
}

// MARK: - Python

/// One request to `Tests/Interop/sqlcipher_client.py`; see the script for the format.
struct PythonRequest {
    enum Driver: String { case sqlcipher3, sqlite3 }
    enum Key {
        case password(String)
        case raw(Data)
    }

    var driver: Driver = .sqlcipher3
    let path: String
    var key: Key?
    /// Run right after the key, e.g. `PRAGMA cipher_compatibility = 3`.
    var pragmas: [String] = []
    var statements: [(sql: String, arguments: [DatabaseValue])] = []

    /// The pragmas that make Python's SQLCipher 4.x read and write what the linked SQLCipher
    /// writes with the tests' 4000 KDF iterations.
    static let ourSettings = CipherFormat.pragmas(client: 4)

    /// Runs the request: each statement's rows, or the client's error message.
    func run() throws -> Result<[[[DatabaseValue]]], PythonFailure> {
        let python = try Interop.require(Interop.python, "Python with sqlcipher3 (.venv)")
        var request: [String: Any] = [
            "driver": driver.rawValue, "path": path, "pragmas": pragmas,
            "statements": statements.map { ["sql": $0.sql, "params": $0.arguments.map(Self.encode)] },
        ]
        switch key {
        case .password(let password): request["key"] = ["password": password]
        case .raw(let bytes): request["key"] = ["raw_hex": bytes.map { String(format: "%02x", $0) }.joined()]
        case nil: request["key"] = NSNull()
        }
        let output = try runProcess(python, [Interop.pythonScript.path], input: JSONSerialization.data(withJSONObject: request))
        guard output.status == 0,
            let answer = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        else {
            return .failure(PythonFailure(message: "exit \(output.status): \(output.stderr)"))
        }
        guard answer["ok"] as? Bool == true, let results = answer["results"] as? [[[Any]]] else {
            return .failure(PythonFailure(message: answer["error"] as? String ?? "\(answer)"))
        }
        return .success(results.map { $0.map { $0.map(Self.decode) } })
    }

    /// Runs the request and returns its rows, failing the test with the client's message.
    func rows() throws -> [[[DatabaseValue]]] { try run().get() }

    private static func encode(_ value: DatabaseValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .integer(let int): return int
        case .real(let double): return ["real": double]
        case .text(let text): return text
        case .blob(let data): return ["blob": data.map { String(format: "%02x", $0) }.joined()]
        }
    }

    private static func decode(_ value: Any) -> DatabaseValue {
        switch value {
        case let number as NSNumber: return .integer(number.int64Value)
        case let text as String: return .text(text)
        case let tagged as [String: Any]:
            if let real = tagged["real"] as? NSNumber { return .real(real.doubleValue) }
            let hex = Array((tagged["blob"] as? String ?? "").utf8)
            return .blob(
                Data(
                    stride(from: 0, to: hex.count - 1, by: 2).compactMap {
                        UInt8(String(decoding: hex[$0...$0 + 1], as: UTF8.self), radix: 16)
                    }))
        default: return .null
        }
    }
}

struct PythonFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

// MARK: - The sqlcipher shell

/// Runs `script` in the Debian `sqlcipher` shell on `path` (the key goes in the script, on
/// standard input, never on the command line) and returns its output lines.
func sqlcipherShell(_ path: String, _ script: String) throws -> ProcessOutput {
    try sqlcipherShell(Interop.require(Interop.sqlcipherShell, "the sqlcipher shell"), path, script)
}

/// Runs `script` in `shell` (another version's, say) on `path`, like ``sqlcipherShell(_:_:)``.
func sqlcipherShell(_ shell: URL, _ path: String, _ script: String) throws -> ProcessOutput {
    try runProcess(shell, ["-batch", "-bail", "-init", "/dev/null", path], input: Data(script.utf8))
}

/// `PRAGMA key = <literal>;` for a shell script, its row kept out of the output: SQLCipher 4.3+
/// answers `PRAGMA key` with a row "ok", 3.x with none.
func shellKey(_ literal: String) -> String {
    ".output /dev/null\nPRAGMA key = \(literal);\n.output\n"
}

/// SQLite's `SQLITE_NOTADB` message as the shell prints it: "file is encrypted or is not a
/// database" up to SQLite 3.15 (SQLCipher 3.4.1), "file is not a database" since.
let notADatabase = "not a database"

/// A ``RichDatabase`` keyed with a raw key; the returned manager has it open.
func makeRichDatabase(in dir: TemporaryDirectory, rawKey: Data, rows: Int) throws -> DatabaseManager {
    let manager = dir.manager()
    try manager.create(.rawKey(rawKey))
    try manager.withDatabase { try RichDatabase.populate($0, rows: rows) }
    return manager
}

/// A password as an SQL string literal, for the shell's `PRAGMA key`.
func sqlLiteral(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
