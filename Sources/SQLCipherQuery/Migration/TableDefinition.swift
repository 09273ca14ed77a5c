// MARK: - TableDefinition

/// A `CREATE TABLE` statement as stored in `sqlite_master`, split into its column definitions
/// and table constraints, and written back with columns renamed, dropped or retyped: the new
/// table of SQLite's 12-step rebuild (lang_altertable.html), keeping every constraint,
/// default, collation and option (`WITHOUT ROWID`) as written.
struct TableDefinition {
    /// One top-level part between the parentheses: a column or a table constraint.
    struct Part {
        var tokens: [SQLToken]
        /// The column's name; `nil` for a table constraint.
        var column: String? {
            guard let first = tokens.first(where: { $0.kind != .trivia }), first.kind == .identifier else { return nil }
            let constraint = ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"].contains { first.isKeyword($0) }
            return constraint ? nil : first.name
        }
    }

    let table: String
    var parts: [Part]
    /// `)` and what follows it (`WITHOUT ROWID`, `STRICT`).
    private let tail: [SQLToken]

    /// Splits `sql`, or `nil` when it has no column list (it is not a `CREATE TABLE`).
    init?(table: String, sql: String) {
        let tokens = SQLToken.tokenize(sql)
        guard let open = tokens.firstIndex(where: { $0.isSymbol("(") }) else { return nil }
        var depth = 0
        var close: Int?
        var parts: [Part] = []
        var start = open + 1
        for index in (open + 1)..<tokens.count {
            if tokens[index].isSymbol("(") { depth += 1 }
            if tokens[index].isSymbol(")") {
                if depth == 0 {
                    close = index
                    break
                }
                depth -= 1
            }
            if depth == 0, tokens[index].isSymbol(",") {
                parts.append(Part(tokens: Array(tokens[start..<index])))
                start = index + 1
            }
        }
        guard let close else { return nil }
        parts.append(Part(tokens: Array(tokens[start..<close])))
        self.table = table
        self.parts = parts
        self.tail = Array(tokens[close...])
    }

    /// The statement that creates the new table `name` with the current parts.
    func createSQL(named name: String) -> String {
        // What precedes the parenthesis (`CREATE TABLE [IF NOT EXISTS] old`) is replaced.
        return "CREATE TABLE " + SQLToken.quote(name) + " (" + parts.map { SQLToken.joined($0.tokens) }.joined(separator: ",")
            + SQLToken.joined(tail)
    }

    // MARK: - Changes

    /// Removes the definition of `column`.
    mutating func drop(_ column: String) {
        parts.removeAll { $0.column?.lowercased() == column.lowercased() }
    }

    /// Replaces the declared type of `column` (the tokens between its name and its first
    /// constraint) with `type`.
    mutating func retype(_ column: String, to type: String) {
        guard let index = parts.firstIndex(where: { $0.column?.lowercased() == column.lowercased() }) else { return }
        var tokens = parts[index].tokens
        guard let nameIndex = tokens.firstIndex(where: { $0.kind != .trivia }) else { return }
        let typeEnd = Self.constraintStart(tokens, after: nameIndex)
        tokens.replaceSubrange((nameIndex + 1)..<typeEnd, with: [SQLToken(kind: .other, text: " " + type + " ")])
        parts[index].tokens = tokens
    }

    /// Renames `old` to `new` in its definition and wherever a constraint of the table names it
    /// (`PRIMARY KEY(old)`, `CHECK(old > 0)`, a `REFERENCES` of this same table), but not in
    /// declared types, collation names or the columns of another table's `REFERENCES`.
    package mutating func rename(_ old: String, to new: String) {
        for index in parts.indices {
            var tokens = parts[index].tokens
            var from = 0
            if parts[index].column != nil, let nameIndex = tokens.firstIndex(where: { $0.kind != .trivia }) {
                if tokens[nameIndex].names(old) { tokens[nameIndex] = .quoted(new) }
                from = Self.constraintStart(tokens, after: nameIndex)
            }
            Self.renameReferences(in: &tokens, from: from, old: old, new: new, table: table)
            parts[index].tokens = tokens
        }
    }

    /// Renames the identifiers naming `old` from `start` on, skipping a collation's name and the
    /// target columns of a `REFERENCES` to another table than `table`.
    static func renameReferences(in tokens: inout [SQLToken], from start: Int, old: String, new: String, table: String) {
        var index = start
        var previous: SQLToken?
        while index < tokens.count {
            let token = tokens[index]
            defer { index += 1 }
            guard token.kind != .trivia else { continue }
            defer { previous = token }
            if previous?.isKeyword("COLLATE") == true { continue }
            if previous?.isKeyword("REFERENCES") == true {
                if !token.names(table) { index = skipColumnList(tokens, after: index) }
                continue
            }
            if token.names(old) { tokens[index] = .quoted(new) }
        }
    }

    /// The index of the `)` closing the column list after the name at `index`, or `index`.
    private static func skipColumnList(_ tokens: [SQLToken], after index: Int) -> Int {
        guard let open = tokens[(index + 1)...].firstIndex(where: { $0.kind != .trivia }), tokens[open].isSymbol("(") else {
            return index
        }
        return tokens[open...].firstIndex(where: { $0.isSymbol(")") }) ?? index
    }

    /// The index of the first column-constraint keyword after the column name at `nameIndex`
    /// (or the end): the declared type lies between.
    private static func constraintStart(_ tokens: [SQLToken], after nameIndex: Int) -> Int {
        let keywords = ["CONSTRAINT", "PRIMARY", "NOT", "NULL", "UNIQUE", "CHECK", "DEFAULT", "COLLATE", "REFERENCES", "GENERATED", "AS"]
        var depth = 0
        for index in (nameIndex + 1)..<tokens.count {
            if tokens[index].isSymbol("(") { depth += 1 }
            if tokens[index].isSymbol(")") { depth -= 1 }
            if depth == 0, keywords.contains(where: tokens[index].isKeyword) { return index }
        }
        return tokens.count
    }
}
