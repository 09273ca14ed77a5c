// MARK: - ScriptStatement
import SQLCipherCore

/// One statement of a script run by ``Database/forEachStatement(in:_:)``: its SQL text, its
/// result columns and its rows. Valid only inside the closure that receives it.
///
/// The statement is compiled (`sqlite3_prepare_v2`) but has not run yet when the closure gets
/// it. ``forEachRow(_:)`` runs it (`sqlite3_step`) and hands over each row; a statement whose
/// rows the closure does not read is run to its end when the closure returns, so every
/// statement of the script runs exactly once.
public final class ScriptStatement {
    /// The statement's text as SQLite's parser delimited it: from the end of the statement
    /// before it through its own `;`, without surrounding whitespace (a comment that precedes
    /// it is kept).
    public let sql: String

    /// The result column names (`sqlite3_column_name`), known before the statement runs;
    /// empty for a statement that returns no columns (INSERT, CREATE, …).
    public let columnNames: [String]

    /// `nil` once the closure has returned.
    private var statement: Statement?
    private var hasRun = false

    package init(statement: Statement) {
        self.statement = statement
        sql = statement.sql
        columnNames = statement.columnNames
    }

    // MARK: - Running

    /// Runs the statement (`sqlite3_step`) and calls `body` with each row, as a ``RowView``
    /// valid only during that call (its ``RowView/row`` is a copy to keep), as
    /// ``Database/forEachRow(_:arguments:_:)`` does. A statement runs once: call this at
    /// most once per statement.
    ///
    /// - Throws: ``SQLiteError`` when the statement fails, with its ``SQLiteError/sql`` (the
    ///   rows before the failure have been handed over); code `misuse` when called a second
    ///   time or after the closure returned; what `body` throws.
    public func forEachRow(_ body: (RowView) throws -> Void) throws {
        let statement = try startRun()
        let count = statement.columnCount
        while try statement.step() { try body(RowView(statement: statement, count: count)) }
    }

    /// The statement, marked as run; `misuse` when it already ran or the closure has returned.
    private func startRun() throws -> Statement {
        guard let statement else {
            throw SQLiteError(extendedCode: .misuse, message: "script statement used after its closure returned", sql: sql)
        }
        guard !hasRun else {
            throw SQLiteError(extendedCode: .misuse, message: "script statement run twice", sql: sql)
        }
        hasRun = true
        return statement
    }

    // MARK: - Walker

    /// Runs the statement to its end when the closure did not read its rows.
    func runToEndUnlessRun() throws {
        guard !hasRun else { return }
        let statement = try startRun()
        while try statement.step() {}
    }

    /// Lets go of the statement, which finalizes it (`sqlite3_finalize`) and so ends a read
    /// that the closure abandoned by throwing.
    package func release() { statement = nil }
}

// A script statement reads a non-thread-safe statement in place; it lives inside one closure.
@available(*, unavailable)
extension ScriptStatement: Sendable {}
