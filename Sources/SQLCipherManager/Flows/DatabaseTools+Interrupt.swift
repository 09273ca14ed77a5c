import Foundation
import SQLCipherCore

// MARK: - Interrupting the work (Ctrl-C)

extension DatabaseTools {
    /// Asks the library's work in this process to stop at the next point where it can still
    /// be undone, on the threads doing it. An encrypt, decrypt, rekey, settings change or
    /// data-key rotation stops while it is exporting, verifying or re-keying (every open
    /// connection gets `sqlite3_interrupt`; later steps fail with ``ResultCode/interrupt``)
    /// and unwinds through its error path: its copy (plaintext included) and journal are
    /// removed, and the original file is as it was. Once its change is journaled for install
    /// or committed, it is not stopped: it finishes, and the request stops the next such work
    /// as it starts. ``interruptStoppedWork`` says which of the two happened. Work of your own
    /// becomes stoppable anywhere inside ``runInterruptibly(_:)``. Safe to call from any
    /// thread, a signal handler's dispatch queue included; it never exits the process.
    ///
    /// For a program that ends after an interrupt (cipherdb): the request is never withdrawn.
    public static func interruptRunningWork() { Interruption.request() }

    /// `true` once ``interruptRunningWork()`` was called.
    public static var isInterruptRequested: Bool { Interruption.isRequested }

    /// `true` once an interrupt stopped work (a step, a copy or the start of a stoppable part
    /// failed with ``ResultCode/interrupt``), so that what that work had written was undone;
    /// `false` when every change it reached finished.
    public static var interruptStoppedWork: Bool { Interruption.hasStoppedWork }

    /// Runs `body` as work that ``interruptRunningWork()`` may stop at any statement step:
    /// reads, or statements whose rollback the caller accounts for (each interrupted statement
    /// is rolled back by SQLite, an open transaction with it). It throws
    /// ``SQLiteError`` with ``ResultCode/interrupt`` at once when a request is pending. The
    /// library's own points of no return stay unstoppable inside it.
    public static func runInterruptibly<T>(_ body: () throws -> T) throws -> T {
        try Interruption.undoable(body)
    }
}
