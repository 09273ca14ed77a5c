internal import CSQLCipher
import Foundation

// MARK: - Scripts

extension Connection {
    /// Walks a script of several statements one at a time: compiles the next statement
    /// (`sqlite3_prepare_v2`, whose tail pointer says where SQLite's parser ended it), hands it
    /// to `body`, and only then compiles the one after it, so that a statement can use what the
    /// ones before it created. Text that holds no statement (whitespace, comments, a lone `;`)
    /// is skipped. Statements are not cached: each is finalized once `body` lets go of it.
    ///
    /// - Throws: ``SQLiteError`` with the failing text when a statement does not compile, or
    ///   what `body` throws; the statements after it are not run, those before it keep their effect.
    package func forEachStatement(in script: String, _ body: (Statement) throws -> Void) throws {
        try script.withCString { start in
            var current = start
            while current.pointee != 0 {
                var stmt: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let (rc, access) = compileReporting { sqlite3_prepare_v2(handle, current, -1, &stmt, &tail) }
                // A failed compile's tail is where the parser stopped (after the first word of
                // `SELEC * FROM t`): the error names the whole statement instead.
                guard rc == SQLITE_OK else { throw lastError(code: rc, sql: Self.statement(startingAt: current)) }
                let sql = Self.text(from: current, to: tail)
                // SQLite always moves past what it compiled; never loop on the same text.
                guard let next = tail, next > current else {
                    sqlite3_finalize(stmt)
                    return
                }
                current = next
                guard let stmt else { continue }
                try body(makeStatement(stmt, sql: sql, access: access))
            }
        }
    }

    /// Runs every statement of a script to its end, without arguments (``forEachStatement(in:_:)``).
    package func executeScript(_ sql: String) throws {
        try forEachStatement(in: sql) { statement in
            while try statement.step() {}
        }
    }

    /// The text between two points of a C string, without surrounding whitespace.
    /// The statement that starts at `start`: up to the first `;` that ends a complete statement
    /// (`sqlite3_complete`, so a `;` in a string, a comment or a trigger body does not), else
    /// the rest of the script.
    static func statement(startingAt start: UnsafePointer<CChar>) -> String {
        let rest = String(cString: start)
        var searchFrom = rest.startIndex
        while let semicolon = rest[searchFrom...].firstIndex(of: ";") {
            let candidate = String(rest[...semicolon])
            if sqlite3_complete(candidate) != 0 { return candidate.trimmingCharacters(in: .whitespacesAndNewlines) }
            searchFrom = rest.index(after: semicolon)
        }
        return rest.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func text(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>?) -> String {
        guard let end else { return String(cString: start).trimmingCharacters(in: .whitespacesAndNewlines) }
        let bytes = UnsafeRawBufferPointer(start: start, count: end - start)
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
