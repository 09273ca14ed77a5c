import TerminalIO

// MARK: - CipherDB

/// The program: parse, run one command, turn any error into a message and an exit code.
enum CipherDB {
    static func main(_ arguments: [String]) -> Int32 {
        let words: [String]
        do {
            words = try SQLCipherLogOption.apply(arguments)
        } catch {
            let failure = Failure(wrapping: error)
            Console.warnEscaped("cipherdb: error: \(failure.message)")
            return failure.code.rawValue
        }
        guard let (name, rest) = commandAndRest(words) else {
            Console.warn(Help.text)
            return ExitCode.usage.rawValue
        }
        if ["-h", "--help", "help"].contains(name) {
            Console.say(Help.text)
            return ExitCode.ok.rawValue
        }
        if ["-V", "--version", "version"].contains(name) {
            Console.say(Version.text)
            return ExitCode.ok.rawValue
        }
        var shownPaths: [String] = []
        var kind = Interrupts.Kind.changing
        do {
            guard let spec = CommandSpec.named(name) else {
                throw Failure.usage("Unknown command '\(name)'.")
            }
            if rest.contains("--help") || rest.contains("-h") {
                Console.say(Help.text(for: spec))
                return ExitCode.ok.rawValue
            }
            let invocation = try Invocation.parse(spec, rest)
            shownPaths = [invocation.path] + [Option.to, .file].compactMap(invocation.value)
            Interrupts.install()
            for note in try InterruptedOperations.recover(invocation) {
                if spec.name == "info" { Console.sayEscaped("recovery: \(note)") } else { Console.warnEscaped("cipherdb: \(note)") }
            }
            kind = Interrupts.kind(of: spec, invocation)
            try Interrupts.run(spec, invocation)
            if let note = Interrupts.lateNote() { Console.warn(note) }
            return ExitCode.ok.rawValue
        } catch {
            if let ending = Interrupts.ending(kind) {
                Console.warn(ending.message)
                return ending.code
            }
            let failure = Failure(wrapping: error).showingPaths(asGiven: shownPaths)
            Console.warnEscaped("cipherdb: error: \(failure.message)")
            return failure.code.rawValue
        }
    }

    /// The command word and the words to parse for it. Options may come before the command
    /// (`cipherdb --password-env PW exec DB SQL`): they are moved after it, where the parser
    /// reads options anywhere. `nil` when there is no command word.
    static func commandAndRest(_ words: [String]) -> (String, [String])? {
        var leading: [String] = []
        var rest = words[...]
        while let word = rest.first, word.hasPrefix("-"), word != "--", !Self.standalone.contains(word) {
            rest.removeFirst()
            leading.append(word)
            if let option = Option(rawValue: word), option.valueName != nil, let value = rest.popFirst() {
                leading.append(value)
            }
        }
        guard let name = rest.popFirst() else { return nil }
        return (name, leading + rest)
    }

    /// The words that are a command of their own, though they start with `-`.
    static let standalone: Set<String> = ["-h", "--help", "-V", "--version"]
}
