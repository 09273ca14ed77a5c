import SQLCipherManager
import TerminalIO

// MARK: - exec

/// `cipherdb exec DB SQL [--json]`: runs each statement of SQL in order and prints the rows.
/// SQLite's parser decides where each statement ends (``Database/forEachStatement(in:_:)``).
/// TSV: each statement that returns rows prints its header and rows, result sets separated by
/// an empty line. JSON: one array with the rows of every statement, printed only when all
/// statements succeeded.
enum ExecCommand {
    static func run(_ invocation: Invocation) throws {
        let script = invocation.arguments[1]
        // Blank SQL is refused before the password is read; SQL of only comments and `;` is
        // refused once SQLite has parsed it.
        guard script.contains(where: { !$0.isWhitespace }) else { throw noStatement }
        let json = invocation.has(.json)
        try Session.withOpenDatabase(invocation) { manager in
            try manager.withDatabase { db in
                if json { try printJSON(db, script) } else { try printTSV(db, script) }
            }
        }
    }

    private static var noStatement: Failure { .usage("The SQL argument holds no statement.") }

    private static func printTSV(_ db: Database, _ script: String) throws {
        var resultSets = 0
        try forEachStatement(db, script) { statement in
            var rows = 0
            try statement.forEachRow { row in
                if rows == 0 {
                    Console.say((resultSets > 0 ? "\n" : "") + TSV.header(statement.columnNames))
                    resultSets += 1
                }
                Console.say(TSV.line(row.row))
                rows += 1
            }
        }
    }

    private static func printJSON(_ db: Database, _ script: String) throws {
        var objects: [String] = []
        try forEachStatement(db, script) { statement in
            try statement.forEachRow { objects.append(JSONRows.object($0.row)) }
        }
        Console.say(objects.isEmpty ? "[]" : "[\n" + objects.joined(separator: ",\n") + "\n]")
    }

    /// Runs every statement of `script` with `body`; a script with no statement is a usage error.
    private static func forEachStatement(
        _ db: Database, _ script: String, _ body: (ScriptStatement) throws -> Void
    ) throws {
        var statements = 0
        try db.forEachStatement(in: script) { statement in
            statements += 1
            try body(statement)
        }
        guard statements > 0 else { throw noStatement }
    }
}
