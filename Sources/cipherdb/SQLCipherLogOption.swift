import SQLCipherManager

// MARK: - SQLCipherLogOption

/// `--sqlcipher-log TARGET` and `--sqlcipher-log-level LEVEL`, accepted before or after any
/// command: SQLCipher's own log (silent by default) to `stderr`, `stdout` or a file, at `warn`
/// unless a level is given. Taken out of the words before the command is parsed.
enum SQLCipherLogOption {
    static let target = "--sqlcipher-log"
    static let level = "--sqlcipher-log-level"

    static let help = [
        "  " + "--sqlcipher-log TARGET".padding(toLength: 26, withPad: " ", startingAt: 0)
            + "any command: SQLCipher's own log to stderr, stdout or file TARGET (default: off)",
        "  " + "--sqlcipher-log-level L".padding(toLength: 26, withPad: " ", startingAt: 0)
            + "with --sqlcipher-log: error, warn (default), info, debug or trace",
    ]

    /// `words` without the two options; routes the log when they ask for it.
    static func apply(_ words: [String]) throws -> [String] {
        var rest: [String] = []
        var target: SQLCipherLog.Target?
        var level: SQLCipherLog.Level?
        var index = words.startIndex
        while index < words.endIndex {
            let word = words[index]
            guard word == Self.target || word == Self.level else {
                rest.append(word)
                index += 1
                continue
            }
            guard index + 1 < words.endIndex else { throw Failure.usage("\(word) needs a value.") }
            let value = words[index + 1]
            if word == Self.target { target = try parseTarget(value) } else { level = try parseLevel(value) }
            index += 2
        }
        if let target {
            SQLCipherLog.route(level: level ?? .warn, to: target)
        } else if level != nil {
            throw Failure.usage("\(Self.level) needs \(Self.target) TARGET (stderr, stdout or a file).")
        }
        return rest
    }

    private static func parseTarget(_ value: String) throws -> SQLCipherLog.Target {
        switch value {
        case "stderr": return .standardError
        case "stdout": return .standardOutput
        case "off": return .off
        case "": throw Failure.usage("\(Self.target) needs stderr, stdout or a file path.")
        default: return .file(value)
        }
    }

    private static func parseLevel(_ value: String) throws -> SQLCipherLog.Level {
        guard let level = SQLCipherLog.Level(rawValue: value.uppercased()), level != .none else {
            throw Failure.usage("\(Self.level) is one of error, warn, info, debug, trace (got '\(value)').")
        }
        return level
    }
}
