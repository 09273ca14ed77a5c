internal import CSQLCipher
import Foundation

// MARK: - SQLCipherLog

/// SQLCipher's own log: silent unless the application asks for it.
///
/// SQLCipher 4.6 and later write warnings to standard error by default — a line such as
/// `ERROR CORE sqlcipher_page_cipher: hmac check failed for pgno=1` for every wrong password,
/// every settings probe and every damaged page — onto the terminal of a command-line tool and
/// into an app's output. The library turns that log off before its first connection is keyed
/// and lets the application route it with ``route(level:to:)``.
///
/// The log is SQLCipher's process-wide setting (`PRAGMA cipher_log`, `cipher_log_level`): one
/// route serves every connection of the process, the library's and any other code's. SQLCipher
/// 3.x has no such log, so there the route is kept and nothing is written.
public enum SQLCipherLog {
    /// Where the lines go.
    public enum Target: Sendable, Equatable {
        /// Nowhere (the library's default).
        case off
        /// The process's standard error.
        case standardError
        /// The process's standard output.
        case standardOutput
        /// Appended to the file at the path (created when missing). SQLCipher buffers the lines:
        /// they reach the file when the log is routed elsewhere or the process exits.
        case file(String)

        var pragmaValue: String {
            switch self {
            case .off: "off"
            case .standardError: "stderr"
            case .standardOutput: "stdout"
            case .file(let path): path
            }
        }
    }

    /// How much SQLCipher writes: each level includes the ones above it.
    public enum Level: String, Sendable, CaseIterable {
        /// Nothing.
        case none = "NONE"
        /// Failures: a page that does not decrypt, a key that does not derive.
        case error = "ERROR"
        /// Failures and warnings (SQLCipher's own default).
        case warn = "WARN"
        /// Also what SQLCipher does at each step.
        case info = "INFO"
        /// Also details for debugging.
        case debug = "DEBUG"
        /// Everything, memory operations included.
        case trace = "TRACE"
    }

    /// The route in force: `(.none, .off)` until the application routes the log.
    public static var current: (level: Level, target: Target) {
        state.withLock { ($0.level, $0.target) }
    }

    /// Sends SQLCipher's log lines of `level` and above to `target`, for the whole process.
    ///
    /// For example `SQLCipherLog.route(level: .warn, to: .standardError)` shows SQLCipher's
    /// warnings while debugging, and `route(level: .none, to: .off)` silences it again.
    public static func route(level: Level, to target: Target) {
        state.withLock { route in
            route.level = level
            route.target = target
            apply(route)
        }
    }

    /// Applies the route once before the first connection of the process is keyed; every
    /// ``Connection`` is opened after this ran.
    package static func prepare() { _ = prepared }

    private static let prepared: Void = state.withLock { apply($0) }

    private struct Route {
        var level = Level.none
        var target = Target.off
    }

    private static let state = LockedValue(Route())

    /// SQLCipher 4.6 applies its defaults (WARN to stderr) at the first key in the process, over
    /// a level set before it: keying a private in-memory connection first makes the route stick.
    private static func apply(_ route: Route) {
        var db: OpaquePointer?
        guard sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK,
            let db
        else {
            sqlite3_close_v2(db)
            return
        }
        defer { sqlite3_close_v2(db) }
        // Best effort, outside the funnel on purpose: a log setting never fails an open.
        _ = sqlite3_key(db, "log", 3)
        // The target first: a level above NONE must not write to the old target meanwhile.
        for pragma in ["cipher_log = \(literal(route.target.pragmaValue))", "cipher_log_level = \(route.level.rawValue)"] {
            _ = sqlite3_exec(db, "PRAGMA " + pragma, nil, nil, nil)
        }
    }

    /// `text` as an SQL string literal (a path, never key material).
    private static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}

/// A value behind a lock, for the few process-wide settings of this layer.
final class LockedValue<Value>: @unchecked Sendable {
    // Safe: `value` is only read or written inside `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
