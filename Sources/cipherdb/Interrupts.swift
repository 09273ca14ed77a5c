import Foundation
import SQLCipherManager
import TerminalIO

// MARK: - Interrupts

/// Ctrl-C and SIGTERM: the work stops at a safe point on the thread doing it
/// (``DatabaseTools/interruptRunningWork()``) where it can still be undone, unwinds through its
/// error path — an encrypt's or decrypt's partial copy removed, the original left as it was —
/// and the command then ends with 128 + the signal's number. A change past its point of no
/// return (an install journaled, a `COMMIT`) finishes instead, and the command reports it and
/// exits 0. A wait for input ends at once. Nothing calls `exit` while SQLite runs.
enum Interrupts {
    /// What a command does, for what an interrupt may stop and what the message says.
    enum Kind {
        /// Reads only (info, verify, keys list, export-key): stoppable anywhere.
        case reading
        /// exec: stoppable at any statement step; earlier statements' commits stay.
        case statements
        /// A change: stoppable only where the library can still undo it.
        case changing
    }

    static func install() {
        InterruptHandler.install(
            stop: { _ in
                Console.warn("\ncipherdb: interrupted; stopping at the next safe point (a change already committed is finished).")
                DatabaseTools.interruptRunningWork()
            },
            waitingMessage: { signal in "cipherdb: stopped by \(name(of: signal)) while waiting for input: nothing was changed." })
    }

    static func kind(of spec: CommandSpec, _ invocation: Invocation) -> Kind {
        switch spec.name {
        case "info", "verify", "export-key": .reading
        case "keys" where invocation.arguments.count > 1 && invocation.arguments[1] == "list": .reading
        case "exec": .statements
        default: .changing
        }
    }

    /// Runs the command: a read or exec as interruptible work, a change as the library decides.
    static func run(_ spec: CommandSpec, _ invocation: Invocation) throws {
        switch kind(of: spec, invocation) {
        case .reading, .statements: try DatabaseTools.runInterruptibly { try spec.run(invocation) }
        case .changing: try spec.run(invocation)
        }
    }

    /// After a command that succeeded: the note for an interrupt that came too late to stop it.
    static func lateNote() -> String? {
        guard let signal = InterruptHandler.received else { return nil }
        return "cipherdb: \(name(of: signal)) came too late to stop the command: it finished, as reported above."
    }

    /// After a command that failed: when an interrupt stopped it, its message and exit status.
    static func ending(_ kind: Kind) -> (message: String, code: Int32)? {
        guard let signal = InterruptHandler.received, DatabaseTools.interruptStoppedWork else { return nil }
        let what =
            switch kind {
            case .reading: "nothing was changed."
            case .statements:
                "the statement running then was rolled back (with its open transaction); what earlier statements committed stays committed."
            case .changing: "nothing was changed by this command, and what it had written is removed."
            }
        return ("cipherdb: stopped by \(name(of: signal)): \(what)", InterruptHandler.exitCode(for: signal))
    }

    private static func name(of signal: Int32) -> String { signal == SIGTERM ? "SIGTERM" : "SIGINT" }
}
