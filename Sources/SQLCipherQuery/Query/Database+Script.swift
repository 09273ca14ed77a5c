// MARK: - Scripts

extension Database {
    /// Runs a script of several statements one at a time and calls `body` with each one
    /// before it runs, so that the rows of every statement can be read (a prepared statement
    /// only ever runs the first statement of its text).
    ///
    /// ```swift
    /// try db.forEachStatement(in: "CREATE TABLE t(x); INSERT INTO t VALUES (1); SELECT x FROM t") { statement in
    ///     try statement.forEachRow { row in print(statement.columnNames, row.row.values) }
    /// }
    /// ```
    ///
    /// SQLite's own parser decides where each statement ends (`sqlite3_prepare_v2` and the tail
    /// it returns), so `;` inside strings, quoted names, comments and `CREATE TRIGGER … BEGIN …
    /// END` bodies never splits a statement. Each statement is compiled only after the one
    /// before it has run, so a script can create a table and then use it. Text that holds no
    /// statement (whitespace, comments, an empty `;`) is skipped: `body` is not called for it.
    /// A statement whose rows `body` does not read (``ScriptStatement/forEachRow(_:)``) is run
    /// to its end when `body` returns. The statements are not cached, take no arguments, and
    /// run in the current transaction if there is one, else each in its own (autocommit).
    ///
    /// ``executeScript(_:)`` is this walk with a `body` that reads no rows.
    ///
    /// - Throws: ``SQLiteError`` when a statement does not compile or fails, with that
    ///   statement's text in ``SQLiteError/sql`` (for a syntax error, the text up to where the
    ///   parser stopped); or what `body` throws. The statements after it do not run; those
    ///   before it keep their effect.
    public func forEachStatement(in script: String, _ body: (ScriptStatement) throws -> Void) throws {
        try liveConnection(script).forEachStatement(in: script) { statement in
            let current = ScriptStatement(statement: statement)
            defer { current.release() }
            try body(current)
            try current.runToEndUnlessRun()
        }
    }
}
