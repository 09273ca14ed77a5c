// MARK: - SQLToken

/// One token of a schema statement (`sqlite_master.sql`), as SQLite's tokenizer splits it:
/// enough to find a table's column definitions and the identifiers that name a column.
struct SQLToken: Equatable {
    /// What the token is.
    package enum Kind: Equatable {
        /// Spaces, newlines and comments.
        case trivia
        /// A bare or quoted (`"x"`, `[x]`, `` `x` ``) name or keyword.
        case identifier
        /// A `'…'` string literal.
        case string
        /// Anything else: a number, an operator, a parenthesis, a comma.
        case other
    }

    package let kind: Kind
    /// The token's text as written.
    package var text: String

    /// The name an identifier stands for: unquoted (`"a""b"` is `a"b`); the text otherwise.
    package var name: String {
        guard kind == .identifier, let first = text.first, "\"[`".contains(first), text.count >= 2 else { return text }
        let inner = String(text.dropFirst().dropLast())
        switch first {
        case "\"": return inner.replacingOccurrences(of: "\"\"", with: "\"")
        case "`": return inner.replacingOccurrences(of: "``", with: "`")
        default: return inner
        }
    }

    /// `true` for an identifier that names `name` (SQLite compares names without regard to ASCII case).
    func names(_ name: String) -> Bool { kind == .identifier && self.name.lowercased() == name.lowercased() }

    /// `true` for the bare keyword `keyword` (any case).
    func isKeyword(_ keyword: String) -> Bool { kind == .identifier && text.uppercased() == keyword }

    /// `true` for the punctuation `symbol`.
    func isSymbol(_ symbol: String) -> Bool { kind == .other && text == symbol }

    /// An identifier token for `name`, quoted with `"`.
    static func quoted(_ name: String) -> SQLToken { SQLToken(kind: .identifier, text: quote(name)) }

    /// `name` in double quotes, inner quotes doubled: safe in SQL whatever it holds.
    static func quote(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// The tokens of `sql`; joined back (``joined(_:)``) they are `sql` again.
    static func tokenize(_ sql: String) -> [SQLToken] {
        let chars = Array(sql.unicodeScalars)
        var tokens: [SQLToken] = []
        var i = 0
        func emit(_ kind: Kind, _ end: Int) {
            var text = ""
            text.unicodeScalars.append(contentsOf: chars[i..<end])
            tokens.append(SQLToken(kind: kind, text: text))
            i = end
        }
        while i < chars.count {
            let c = chars[i]
            let next = i + 1 < chars.count ? chars[i + 1] : " "
            if c.properties.isWhitespace {
                emit(.trivia, scan(chars, from: i) { $0.properties.isWhitespace })
            } else if c == "-", next == "-" {
                emit(.trivia, chars[i...].firstIndex(of: "\n").map { $0 + 1 } ?? chars.count)
            } else if c == "/", next == "*" {
                emit(.trivia, closing(chars, from: i + 2, "*", "/"))
            } else if c == "'" || c == "\"" || c == "`" {
                emit(c == "'" ? .string : .identifier, quotedEnd(chars, from: i, quote: c))
            } else if c == "[" {
                emit(.identifier, (chars[(i + 1)...].firstIndex(of: "]") ?? chars.count - 1) + 1)
            } else if isNameCharacter(c) {
                // A number (`12`, `1e5`) is not a name, though made of the same characters.
                emit(("0"..."9").contains(c) ? .other : .identifier, scan(chars, from: i, while: isNameCharacter))
            } else {
                emit(.other, i + 1)
            }
        }
        return tokens
    }

    /// The tokens' text, concatenated.
    static func joined(_ tokens: some Sequence<SQLToken>) -> String { tokens.map(\.text).joined() }

    private static func isNameCharacter(_ c: Unicode.Scalar) -> Bool {
        c.value >= 0x80 || c == "_" || c == "$" || c.properties.isAlphabetic || ("0"..."9").contains(c)
    }

    private static func scan(_ chars: [Unicode.Scalar], from start: Int, while keep: (Unicode.Scalar) -> Bool) -> Int {
        var end = start
        while end < chars.count, keep(chars[end]) { end += 1 }
        return end
    }

    /// The end of a `/* … */` comment (the whole rest when unclosed).
    private static func closing(_ chars: [Unicode.Scalar], from start: Int, _ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Int {
        var end = start
        while end + 1 < chars.count {
            if chars[end] == a, chars[end + 1] == b { return end + 2 }
            end += 1
        }
        return chars.count
    }

    /// The end of a quoted token whose quote is doubled inside it.
    private static func quotedEnd(_ chars: [Unicode.Scalar], from start: Int, quote: Unicode.Scalar) -> Int {
        var end = start + 1
        while end < chars.count {
            if chars[end] == quote {
                if end + 1 < chars.count, chars[end + 1] == quote {
                    end += 2
                    continue
                }
                return end + 1
            }
            end += 1
        }
        return chars.count
    }
}
