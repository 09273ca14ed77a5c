import SQLCipherManager
import TerminalIO

// MARK: - exec

/// `cipherdb exec DB SQL [--json]`: runs each statement of SQL in order and prints the rows.
/// TSV: each statement that returns rows prints its header and rows, result sets separated by
/// an empty line. JSON: one array with the rows of every statement, printed only when all
/// statements succeeded.
enum ExecCommand {
    static func run(_ invocation: Invocation) throws {
        let statements = SQLScript.statements(invocation.arguments[1])
        guard !statements.isEmpty else { throw Failure.usage("The SQL argument holds no statement.") }
        let json = invocation.has(.json)
        try Session.withOpenDatabase(invocation) { manager in
            try manager.withDatabase { db in
                if json { try printJSON(db, statements) } else { try printTSV(db, statements) }
            }
        }
    }

    private static func printTSV(_ db: Database, _ statements: [String]) throws {
        var resultSets = 0
        for sql in statements {
            var rows = 0
            try db.forEachRow(sql) { row in
                if rows == 0 {
                    Console.say((resultSets > 0 ? "\n" : "") + TSV.header(row.columnNames))
                    resultSets += 1
                }
                Console.say(TSV.line(row))
                rows += 1
            }
        }
    }

    private static func printJSON(_ db: Database, _ statements: [String]) throws {
        var objects: [String] = []
        for sql in statements {
            try db.forEachRow(sql) { objects.append(JSONRows.object($0)) }
        }
        Console.say(objects.isEmpty ? "[]" : "[\n" + objects.joined(separator: ",\n") + "\n]")
    }
}
