// MARK: - SQLScript

/// Splits SQL text into statements at the `;` that end them — not those inside quotes,
/// identifiers, comments or a `CREATE TRIGGER … BEGIN … END` body — so `exec` can run each one
/// and print its rows (a prepared statement only ever runs the first statement of its text).
enum SQLScript {
    static func statements(_ text: String) -> [String] {
        var scanner = Scanner(Array(text.unicodeScalars))
        var statements: [String] = []
        while let statement = scanner.nextStatement() {
            let trimmed = statement.trimmingWhitespace
            if scanner.sawCode && !trimmed.isEmpty { statements.append(trimmed) }
        }
        return statements
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0
        /// Whether the statement just returned had anything but comments and blanks.
        var sawCode = false
        private var words: [String] = []
        private var word = ""

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        /// The text up to and including the next statement-ending `;`, or `nil` at the end.
        mutating func nextStatement() -> String? {
            guard index < scalars.count else { return nil }
            let start = index
            sawCode = false
            words = []
            word = ""
            while index < scalars.count {
                let scalar = scalars[index]
                if skipQuotedOrComment(scalar) { continue }
                index += 1
                if scalar == ";" {
                    endWord()
                    if !isInsideTriggerBody { break }
                } else if scalar.properties.isAlphabetic || scalar == "_" || ("0"..."9").contains(scalar) {
                    word.unicodeScalars.append(scalar)
                    sawCode = true
                } else {
                    endWord()
                    if !scalar.properties.isWhitespace { sawCode = true }
                }
            }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars[start..<index])
            return String(text)
        }

        /// Steps over a quoted string or identifier, or a comment, starting at `scalar`.
        private mutating func skipQuotedOrComment(_ scalar: Unicode.Scalar) -> Bool {
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            switch scalar {
            case "'", "\"", "`": skip(until: scalar, from: index + 1, code: true)
            case "[": skip(until: "]", from: index + 1, code: true)
            case "-" where next == "-": skip(until: "\n", from: index + 2, code: false)
            case "/" where next == "*": skipBlockComment()
            default: return false
            }
            endWord()
            return true
        }

        private mutating func skip(until close: Unicode.Scalar, from start: Int, code: Bool) {
            index = scalars[start...].firstIndex(of: close).map { $0 + 1 } ?? scalars.count
            if code { sawCode = true }
        }

        private mutating func skipBlockComment() {
            var position = index + 2
            while position + 1 < scalars.count, !(scalars[position] == "*" && scalars[position + 1] == "/") {
                position += 1
            }
            index = min(position + 2, scalars.count)
        }

        private mutating func endWord() {
            if !word.isEmpty { words.append(word.uppercased()) }
            word = ""
        }

        /// `true` in `CREATE [TEMP] TRIGGER …` until the word before the `;` is `END`.
        private var isInsideTriggerBody: Bool {
            let head = words.prefix(3)
            guard head.first == "CREATE", head.contains("TRIGGER") else { return false }
            return words.last != "END"
        }
    }
}

extension String {
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
