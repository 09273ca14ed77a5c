import Foundation
import SQLCipherManager
import TerminalIO

// MARK: - NotesShell

/// The command loop after login. Returns when the user quits (or input ends) or when the
/// database is closed under it (`lock`, or a failed rekey that locked the app).
struct NotesShell {
    enum Exit {
        case quit
        case locked
    }

    /// A command: its name, arguments text, and the help line.
    struct Command: Sendable {
        let name: String
        let usage: String
        let run: @Sendable (NotesShell, String) throws -> Void
    }

    let manager: DatabaseManager
    /// The commands typed so far, for the line editor's Up and Down (commands only: never a
    /// password or a note's body). Kept across `lock` and login.
    let history: LineHistory
    var notes: Notes { Notes(manager: manager) }

    func run() -> Exit {
        Console.say("Unlocked. Type 'help' for the commands.")
        while manager.isOpen {
            guard let line = Ask.line("notes> ", history: history) else { return .quit }
            let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
            guard let name = words.first.map(String.init) else { continue }
            let argument = words.count > 1 ? String(words[1]) : ""
            if name == "quit" || name == "exit" { return .quit }
            guard let command = Self.commands.first(where: { $0.name == name }) else {
                Console.sayEscaped("Unknown command '\(name)'. Type 'help' for the commands.")
                continue
            }
            do {
                try command.run(self, argument)
            } catch {
                Console.sayEscaped("Error: \(error)")
            }
        }
        return .locked
    }

    static let commands: [Command] = [
        Command(name: "add", usage: "add TITLE      add a note; its body follows, ended by an empty line") { try $0.add($1) },
        Command(name: "list", usage: "list           list the notes") { shell, _ in try shell.list() },
        Command(name: "show", usage: "show ID        show a note") { try $0.show($1) },
        Command(name: "search", usage: "search TEXT    notes whose title or body contains TEXT") { try $0.search($1) },
        Command(name: "delete", usage: "delete ID      delete a note") { try $0.delete($1) },
        Command(name: "passwd", usage: "passwd         change the database password") { shell, _ in try shell.changePassword() },
        Command(name: "lock", usage: "lock           close the database, forget its key, back to the login prompt") { shell, _ in
            shell.lock()
        },
        Command(name: "info", usage: "info           SQLCipher version, cipher settings, schema version, file size") { shell, _ in
            try shell.info()
        },
        Command(name: "help", usage: "help           this list") { shell, _ in shell.help() },
    ]

    func help() {
        for command in Self.commands { Console.say("  " + command.usage) }
        Console.say("  quit           close the database and leave (also Ctrl-D; Ctrl-C closes it too)")
    }

    func lock() {
        manager.close(forgettingKey: true)
        Console.say("Locked. The database is closed and its key forgotten.")
    }
}
