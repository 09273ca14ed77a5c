import SQLCipherManager
import TerminalIO

// MARK: - exec

/// `cipherdb exec DB SQL|- [--file PATH] [--json]`: runs each statement of the SQL in order and
/// prints the rows. SQLite's parser decides where each statement ends
/// (``Database/forEachStatement(in:_:)``). The SQL is the argument, stdin for `-`, or the file
/// of `--file` (``SQLSource``).
///
/// TSV: each statement that returns rows prints its header and rows, result sets separated by
/// an empty line. JSON: each statement that returns columns (a `SELECT`, even with no rows, a
/// `PRAGMA` that answers) prints one array of row objects, one array after the other — a
/// stream of JSON values, as `jq` reads (`jq -s` gathers them in one array). JSON is printed
/// only when every statement succeeded.
enum ExecCommand {
    static func run(_ invocation: Invocation) throws {
        let source = try SQLSource(invocation)
        // Blank SQL is refused before the password is read (except SQL typed at a terminal,
        // read after the password prompt); SQL of only comments and `;` once SQLite parsed it.
        let early = source.readsAfterPassword ? nil : try checked(source.read())
        let json = invocation.has(.json)
        try Session.withOpenDatabase(invocation) { manager in
            let script = try early ?? checked(source.read())
            try manager.withDatabase { db in
                if json { try printJSON(db, script) } else { try printTSV(db, script) }
            }
        }
    }

    private static func checked(_ script: String) throws -> String {
        guard script.contains(where: { !$0.isWhitespace }) else { throw noStatement }
        return script
    }

    private static var noStatement: Failure { .usage("The SQL holds no statement.") }

    private static func printTSV(_ db: Database, _ script: String) throws {
        var resultSets = 0
        try forEachStatement(db, script) { statement in
            var rows = 0
            try statement.forEachRow { row in
                if rows == 0 {
                    Console.say((resultSets > 0 ? "\n" : "") + TSV.header(statement.columnNames))
                    resultSets += 1
                }
                Console.say(TSV.line(Cell.cells(row)))
                rows += 1
            }
        }
    }

    private static func printJSON(_ db: Database, _ script: String) throws {
        var arrays: [String] = []
        try forEachStatement(db, script) { statement in
            var objects: [String] = []
            try statement.forEachRow { objects.append(JSONRows.object(statement.columnNames, Cell.cells($0))) }
            guard !statement.columnNames.isEmpty else { return }
            arrays.append(objects.isEmpty ? "[]" : "[\n" + objects.joined(separator: ",\n") + "\n]")
        }
        if !arrays.isEmpty { Console.say(arrays.joined(separator: "\n")) }
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
