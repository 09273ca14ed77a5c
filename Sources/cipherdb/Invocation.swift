// MARK: - Invocation

/// A parsed command line: `cipherdb COMMAND ARGUMENTS... [OPTIONS]` (options may come anywhere
/// after the command, or before it (``CipherDB/commandAndRest(_:)``), as `--name value` or
/// `--name=value`; `--` ends them).
struct Invocation {
    let spec: CommandSpec
    let arguments: [String]
    private(set) var values: [Option: String] = [:]

    /// The first argument: the database file.
    var path: String { arguments[0] }

    func value(_ option: Option) -> String? { values[option] }

    func has(_ option: Option) -> Bool { values[option] != nil }

    /// A numeric option's value (decimal digits, in its range: checked while parsing).
    func number(_ option: Option) -> Int? { values[option].flatMap { Int($0) } }

    /// Parses the arguments after the command name.
    static func parse(_ spec: CommandSpec, _ words: [String]) throws(Failure) -> Invocation {
        var invocation = Invocation(spec: spec, arguments: [])
        var positional: [String] = []
        var rest = words[...]
        var optionsEnded = false
        while let word = rest.popFirst() {
            // A word with a space or newline is never an option: SQL may start with a `--` comment.
            if optionsEnded || !word.hasPrefix("-") || word == "-" || word.contains(where: \.isWhitespace) {
                positional.append(word)
            } else if word == "--" {
                optionsEnded = true
            } else {
                try invocation.take(word, from: &rest)
            }
        }
        // An argument shown as `[NAME]` may be left out.
        let required = spec.arguments.filter { !$0.hasPrefix("[") }.count
        guard (required...spec.arguments.count).contains(positional.count) else {
            throw Failure.usage(
                "`cipherdb \(spec.name)` takes \(spec.arguments.joined(separator: " ")); "
                    + "got \(positional.count) argument\(positional.count == 1 ? "" : "s"). Usage: \(spec.usageLine).")
        }
        invocation = Invocation(spec: spec, arguments: positional, values: invocation.values)
        try invocation.checkValues()
        return invocation
    }

    /// Reads one option (and its value) into `values`.
    private mutating func take(_ word: String, from rest: inout ArraySlice<String>) throws(Failure) {
        let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
        let name = parts[0]
        if Option.refusedPasswordArguments.contains(name) {
            throw Failure(.usage, "\(name) is refused. " + Option.refusalMessage)
        }
        guard let option = Option(rawValue: name) else {
            throw Failure.usage("Unknown option \(name).")
        }
        guard spec.options.contains(option) else {
            throw Failure.usage("\(name) does not apply to `cipherdb \(spec.name)`. Usage: \(spec.usageLine).")
        }
        guard let valueName = option.valueName else {
            guard parts.count == 1 else { throw Failure.usage("\(name) takes no value.") }
            values[option] = ""
            return
        }
        guard let value = parts.count == 2 ? parts[1] : rest.popFirst(), !value.isEmpty else {
            throw Failure.usage("\(name) needs a value: \(name) \(valueName).")
        }
        if option.isNumeric { try Self.checkDigits(option, value) }
        values[option] = value
    }
}
