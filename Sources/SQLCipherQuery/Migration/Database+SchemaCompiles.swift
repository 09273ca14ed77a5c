// MARK: - Views and triggers that no longer compile
import SQLCipherCore

extension Database {
    /// A view or trigger that does not compile, and SQLite's message why.
    struct BrokenSchemaObject: Hashable {
        var kind: String
        var name: String
        var message: String
    }

    /// Every view and trigger of the main schema that does not compile now. A view compiles
    /// when it is read and a trigger when a statement that fires it is prepared (`CREATE`
    /// checks neither body), so each is compiled that way, never run: `SELECT * FROM view
    /// LIMIT 0`, and for a trigger an `INSERT … DEFAULT VALUES`, `DELETE … WHERE 0` or `UPDATE
    /// … SET c = c WHERE 0` on its table or view, prepared and finalized.
    func brokenViewsAndTriggers() throws -> Set<BrokenSchemaObject> {
        var broken: Set<BrokenSchemaObject> = []
        let objects = try fetchAll(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('view', 'trigger') AND sql IS NOT NULL")
        for object in objects {
            let kind = object.value(0, as: String.self) ?? ""
            let name = object.value(1, as: String.self) ?? ""
            let sql: String
            if kind == "view" {
                sql = "SELECT * FROM \(SQLToken.quote(name)) LIMIT 0"
            } else {
                let target = object.value(2, as: String.self) ?? ""
                guard let firing = try firingStatement(trigger: object.value(3, as: String.self) ?? "", on: target) else { continue }
                sql = firing
            }
            do { try liveConnection(sql).prepare(sql).finalize() } catch let error as SQLiteError {
                broken.insert(BrokenSchemaObject(kind: kind, name: name, message: error.message ?? "\(error)"))
            }
        }
        return broken
    }

    /// A statement on `table` that fires the trigger whose `CREATE TRIGGER` is `sql`: its
    /// event is the last `INSERT`, `DELETE` or `UPDATE` before the header's `ON` (none of them
    /// is a name SQLite accepts unquoted), and `UPDATE OF a, b` sets its columns.
    private func firingStatement(trigger sql: String, on table: String) throws -> String? {
        let tokens = SQLToken.tokenize(sql).filter { $0.kind != .trivia }
        guard let on = tokens.firstIndex(where: { $0.isKeyword("ON") }),
            let event = tokens[..<on].lastIndex(where: { $0.isKeyword("INSERT") || $0.isKeyword("DELETE") || $0.isKeyword("UPDATE") })
        else { return nil }
        let quoted = SQLToken.quote(table)
        if tokens[event].isKeyword("INSERT") { return "INSERT INTO \(quoted) DEFAULT VALUES" }
        if tokens[event].isKeyword("DELETE") { return "DELETE FROM \(quoted) WHERE 0" }
        var columns = tokens[(event + 1)..<on].filter { $0.kind == .identifier && !$0.isKeyword("OF") }.map(\.name)
        if columns.isEmpty {
            columns = try fetchAll("PRAGMA table_info(\(quoted))").compactMap { $0.value(1, as: String.self) }.prefix(1).map { $0 }
        }
        guard !columns.isEmpty else { return nil }
        let assignments = columns.map { "\(SQLToken.quote($0)) = \(SQLToken.quote($0))" }.joined(separator: ", ")
        return "UPDATE \(quoted) SET \(assignments) WHERE 0"
    }

    /// ``MigrationError/rebuildRefused(table:reason:)`` for the first view or trigger that
    /// compiled before the change (`before`) and does not now.
    func checkViewsAndTriggers(table: String, before: Set<BrokenSchemaObject>) throws {
        let known = Set(before.map { [$0.kind, $0.name] })
        guard
            let broken = try brokenViewsAndTriggers().sorted(by: { ($0.kind, $0.name) < ($1.kind, $1.name) })
                .first(where: { !known.contains([$0.kind, $0.name]) })
        else { return }
        throw MigrationError.rebuildRefused(
            table: table,
            reason: "the \(broken.kind) \(broken.name) no longer compiles (\(broken.message)): drop it first and create it again after")
    }
}
