#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

// MARK: - EchoControl

/// Turns a terminal's echo off while a secret is typed (termios), and back on — also from the
/// interrupt handler, so Ctrl-C at a password prompt never leaves the terminal silent.
public enum EchoControl {
    /// The settings to put back, while echo is off.
    private final class Saved: @unchecked Sendable {
        // @unchecked: `settings` is read and written only under `lock`.
        let lock = NSLock()
        var settings: (fd: Int32, value: termios)?
    }

    private static let saved = Saved()

    /// Runs `body` with echo off on `fd` when it is a terminal; otherwise just runs it.
    public static func withEchoDisabled<T>(fd: Int32 = STDIN_FILENO, _ body: () throws -> T) rethrows -> T {
        var original = termios()
        guard isatty(fd) == 1, tcgetattr(fd, &original) == 0 else { return try body() }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        saved.lock.withLock { saved.settings = (fd, original) }
        _ = tcsetattr(fd, TCSADRAIN, &silent)
        defer { restore() }
        return try body()
    }

    /// Puts echo back if a secret prompt turned it off. Safe to call at any time, from any thread.
    public static func restore() {
        saved.lock.withLock {
            guard var settings = saved.settings else { return }
            _ = tcsetattr(settings.fd, TCSADRAIN, &settings.value)
            saved.settings = nil
        }
    }
}
