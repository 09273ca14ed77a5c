// MARK: - SchemaObjectSQL

/// The `CREATE INDEX` and `CREATE TRIGGER` statements of a rebuilt table, rewritten for a
/// renamed column, and checked for a dropped one (a trigger compiles only when it fires, so
/// recreating it would not say that it broke).
enum SchemaObjectSQL {
    /// The index's SQL with `old` renamed to `new` after `ON table` (its columns and `WHERE`).
    static func renamingIndexColumn(_ sql: String, table: String, old: String, new: String) -> String {
        var tokens = SQLToken.tokenize(sql)
        guard let on = tokens.firstIndex(where: { $0.isKeyword("ON") }),
            let name = tokens[(on + 1)...].firstIndex(where: { $0.kind != .trivia })
        else { return sql }
        TableDefinition.renameReferences(in: &tokens, from: name + 1, old: old, new: new, table: table)
        return SQLToken.joined(tokens)
    }

    /// Where a trigger names `column` of its table: the indexes of the tokens that do so
    /// unambiguously (`NEW.column`, `OLD.column`, `table.column`, `UPDATE OF column`), and
    /// whether it also names it unqualified in its body (which may mean another table's column).
    static func uses(of column: String, inTrigger tokens: [SQLToken], table: String) -> (qualified: [Int], unqualified: Bool) {
        let significant = tokens.indices.filter { tokens[$0].kind != .trivia }
        var qualified: [Int] = []
        var unqualified = false
        var inUpdateOf = false
        var pastHeader = false
        for (position, index) in significant.enumerated() {
            let token = tokens[index]
            let before = position > 0 ? tokens[significant[position - 1]] : nil
            if before?.isKeyword("UPDATE") == true, token.isKeyword("OF"), !pastHeader { inUpdateOf = true }
            if token.isKeyword("ON") { inUpdateOf = false }
            if token.isKeyword("BEGIN") { pastHeader = true }
            guard token.names(column) else { continue }
            if before?.isSymbol(".") == true {
                let qualifier = position > 1 ? tokens[significant[position - 2]] : nil
                if let qualifier, qualifier.isKeyword("NEW") || qualifier.isKeyword("OLD") || qualifier.names(table) {
                    qualified.append(index)
                }
            } else if inUpdateOf {
                qualified.append(index)
            } else if pastHeader || before?.isKeyword("WHEN") == true {
                unqualified = true
            }
        }
        return (qualified, unqualified)
    }
}
