import TerminalIO

// MARK: - CipherDB

/// The program: parse, run one command, turn any error into a message and an exit code.
enum CipherDB {
    static func main(_ words: [String]) -> Int32 {
        guard let name = words.first else {
            Console.warn(Help.text)
            return ExitCode.usage.rawValue
        }
        if ["-h", "--help", "help"].contains(name) {
            Console.say(Help.text)
            return ExitCode.ok.rawValue
        }
        do {
            guard let spec = CommandSpec.named(name) else {
                throw Failure.usage("Unknown command '\(name)'.")
            }
            let rest = Array(words.dropFirst())
            if rest.contains("--help") || rest.contains("-h") {
                Console.say(Help.text(for: spec))
                return ExitCode.ok.rawValue
            }
            let invocation = try Invocation.parse(spec, rest)
            InterruptHandler.install { _ in Console.warn("\ncipherdb: interrupted.") }
            try spec.run(invocation)
            return ExitCode.ok.rawValue
        } catch {
            let failure = Failure(wrapping: error)
            Console.warn("cipherdb: error: \(failure.message)")
            return failure.code.rawValue
        }
    }
}
