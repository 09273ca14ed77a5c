import Foundation

// MARK: - DemoOptions

/// The login program's command line: `LoginDemo [--db PATH] [--help]`.
struct DemoOptions {
    /// The default database file, in the current directory.
    static let defaultPath = "secure-notes.db"

    static let usage = """
        usage: LoginDemo [--db PATH]

        A secure-notes program on an encrypted SQLCipher database (the SQLCipherManager login flow).
          --db PATH   the database file (default: ./\(defaultPath)); created on first run
          --help      show this help

        The first run asks for a new password (twice); later runs ask for it (3 tries).
        At a terminal, commands can be edited (Left/Right, Backspace, Home/End) and recalled
        (Up/Down); passwords are never shown or kept.
        When stdin is not a terminal, passwords and commands are read line by line from it.
        """

    var databaseURL = URL(fileURLWithPath: defaultPath)
    var showHelp = false

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> DemoOptions {
        var options = DemoOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--db":
                guard let path = rest.popFirst(), !path.isEmpty else { throw UsageError("--db needs a file path") }
                options.databaseURL = URL(fileURLWithPath: path)
            case "-h", "--help":
                options.showHelp = true
            default:
                throw UsageError("unknown argument '\(argument)'")
            }
        }
        return options
    }
}

/// A command-line mistake; the message says what was wrong.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
