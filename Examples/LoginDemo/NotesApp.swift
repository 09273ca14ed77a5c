import Foundation
import SQLCipherManager
import TerminalIO

// MARK: - NotesApp

/// The program: options, the manager with its migrator and delegate, then login → shell,
/// back to login after `lock`, until the user quits.
enum NotesApp {
    /// Runs the program and returns its exit status: 0 after quit or end of input in the
    /// shell, 1 when login fails or input ends at the login prompt, 2 for a usage mistake.
    static func main(arguments: [String]) -> Int32 {
        let options: DemoOptions
        do {
            options = try DemoOptions.parse(arguments)
        } catch {
            Console.warn("LoginDemo: " + TerminalText.escape(error.message) + "\n\n" + DemoOptions.usage)
            return 2
        }
        if options.showHelp {
            Console.say(DemoOptions.usage)
            return 0
        }
        let manager = makeManager(url: options.databaseURL)
        let events = DemoEvents(lockApp: { [manager] in manager.close(forgettingKey: true) })
        manager.delegate = events
        InterruptHandler.install { [manager] _ in
            manager.close()
            Console.say("\nInterrupted. The database is closed.")
        }
        defer { withExtendedLifetime(events) {} }
        return loop(manager)
    }

    static func makeManager(url: URL) -> DatabaseManager {
        let configuration = DatabaseConfiguration(passwordPolicy: .minimumLength(8))
        let manager = DatabaseManager(url: url, configuration: configuration)
        manager.schemaMigrator = NotesSchema.migrator
        return manager
    }

    /// Login, shell, and again after `lock`.
    static func loop(_ manager: DatabaseManager) -> Int32 {
        let history = LineHistory()
        while true {
            switch LoginFlow(manager: manager).run() {
            case .loggedIn: break
            case .failed: return 1
            case .endOfInput:
                Console.say("No password given; leaving.")
                return 1
            }
            switch NotesShell(manager: manager, history: history).run() {
            case .locked: continue
            case .quit:
                manager.close()
                Console.say("Bye. The database is closed.")
                return 0
            }
        }
    }
}
