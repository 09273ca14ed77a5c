// MARK: - Rebuild plan

extension Database {
    /// Each kept column's name before and after the changes, in table order.
    ///
    /// - Throws: ``MigrationError/rebuildRefused(table:reason:)`` for a column that does not exist (at that point of the
    ///   changes), a new name already taken, dropping the last column, or an unusable type.
    static func columnPairs(_ columns: [String], _ rebuild: TableRebuild, table: String) throws -> [(old: String, new: String)] {
        let fail = { (reason: String) in MigrationError.rebuildRefused(table: table, reason: reason) }
        var pairs = columns.map { (old: $0, new: $0) }
        func index(of column: String) throws -> Int {
            guard let index = pairs.firstIndex(where: { $0.new.lowercased() == column.lowercased() }) else {
                throw fail("it has no column \(column) (its columns: \(pairs.map(\.new).joined(separator: ", ")))")
            }
            return index
        }
        for change in rebuild.changes {
            switch change {
            case .rename(let old, let new):
                let at = try index(of: old)
                guard !new.isEmpty,
                    !pairs.contains(where: { $0.new.lowercased() == new.lowercased() }) || old.lowercased() == new.lowercased()
                else { throw fail("the new name \"\(new)\" of column \(old) is empty or already taken") }
                pairs[at].new = new
            case .drop(let column):
                let at = try index(of: column)
                guard pairs.count > 1 else { throw fail("\(column) is its last column: a table keeps at least one") }
                pairs.remove(at: at)
            case .retype(let column, let type):
                _ = try index(of: column)
                guard Self.isTypeName(type) else {
                    throw fail("\"\(type)\" is not a type name (such as INTEGER, REAL, TEXT, BLOB, NUMERIC or VARCHAR(20))")
                }
            }
        }
        return pairs
    }

    /// A declared type: names and numbers, parentheses balanced, no `,` or `;` outside them,
    /// no string, no comment.
    private static func isTypeName(_ type: String) -> Bool {
        var depth = 0
        var names = 0
        for token in SQLToken.tokenize(type) {
            switch token.kind {
            case .trivia: if token.text.contains("-") || token.text.contains("/") { return false }
            case .string: return false
            case .identifier: names += depth == 0 ? 1 : 0
            case .other:
                if token.isSymbol("(") { depth += 1 } else if token.isSymbol(")") { depth -= 1 }
                if depth < 0 || token.isSymbol(";") || (depth == 0 && token.isSymbol(",")) { return false }
            }
        }
        return depth == 0 && names > 0
    }

    /// A saved index or trigger's kind, name and SQL to create it again after the changes.
    ///
    /// - Throws: ``MigrationError/rebuildRefused(table:reason:)`` for a trigger that uses a dropped column, or names a
    ///   renamed one unqualified in its body (another table's column could have that name).
    static func rewritten(
        _ row: Row, table: String, _ rebuild: TableRebuild, fail: (String) -> MigrationError
    ) throws -> (String, String, String) {
        let kind = row.value(0, as: String.self) ?? ""
        let name = row.value(1, as: String.self) ?? ""
        var sql = row.value(2, as: String.self) ?? ""
        for change in rebuild.changes {
            switch change {
            case .rename(let old, let new) where kind == "index":
                sql = SchemaObjectSQL.renamingIndexColumn(sql, table: table, old: old, new: new)
            case .rename(let old, let new):
                var tokens = SQLToken.tokenize(sql)
                let uses = SchemaObjectSQL.uses(of: old, inTrigger: tokens, table: table)
                guard !uses.unqualified else {
                    throw fail(
                        "its trigger \(name) names column \(old) without NEW., OLD. or \(table). in its body, which could be another "
                            + "table's column: drop the trigger before the rebuild and create it again after")
                }
                for index in uses.qualified { tokens[index] = .quoted(new) }
                sql = SQLToken.joined(tokens)
            case .drop(let column) where kind == "trigger":
                let uses = SchemaObjectSQL.uses(of: column, inTrigger: SQLToken.tokenize(sql), table: table)
                guard uses.qualified.isEmpty, !uses.unqualified else {
                    throw fail("its trigger \(name) uses column \(column): drop or change the trigger first")
                }
            default: break
            }
        }
        return (kind, name, sql)
    }
}
