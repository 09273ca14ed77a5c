import Foundation

// MARK: - EchoControl

/// Changes a terminal's settings (termios) for a while — echo off while a secret is typed, raw
/// keys for the ``LineEditor`` — and puts them back, also from the interrupt handler, so Ctrl-C
/// never leaves the terminal silent or raw.
public enum EchoControl {
    /// The settings to put back, while they are changed.
    private final class Saved: @unchecked Sendable {
        // @unchecked: `settings` is read and written only under `lock`.
        let lock = NSLock()
        var settings: POSIXTerminal.TerminalSettings?
    }

    private static let saved = Saved()

    /// Runs `body` with echo off on `fd` when it is a terminal; otherwise just runs it.
    public static func withEchoDisabled<T>(fd: Int32 = POSIXTerminal.standardInput, _ body: () throws -> T) rethrows -> T {
        try withMode(.noEcho, fd: fd, body)
    }

    /// Runs `body` with the settings of `fd` changed for `mode` when it is a terminal
    /// (`tcgetattr`/`tcsetattr`), then puts the old ones back; otherwise just runs it.
    static func withMode<T>(_ mode: POSIXTerminal.Mode, fd: Int32 = POSIXTerminal.standardInput, _ body: () throws -> T) rethrows -> T {
        guard let original = POSIXTerminal.TerminalSettings(of: fd) else { return try body() }
        saved.lock.withLock { saved.settings = original }
        original.changed(to: mode).apply()
        defer { restore() }
        return try body()
    }

    /// Puts back the settings a prompt changed, if any. Safe to call at any time, from any thread.
    public static func restore() {
        saved.lock.withLock {
            saved.settings?.apply()
            saved.settings = nil
        }
    }
}
