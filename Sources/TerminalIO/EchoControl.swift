import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - EchoControl

/// Changes a terminal's settings (termios) for a while — echo off while a secret is typed, raw
/// keys for the ``LineEditor`` — and puts them back, also from the interrupt handler, so Ctrl-C
/// never leaves the terminal silent or raw.
public enum EchoControl {
    /// The settings to put back, while they are changed.
    private final class Saved: @unchecked Sendable {
        // @unchecked: `settings` is read and written only under `lock`.
        let lock = NSLock()
        var settings: (fd: Int32, value: termios)?
    }

    private static let saved = Saved()

    /// Runs `body` with echo off on `fd` when it is a terminal; otherwise just runs it.
    public static func withEchoDisabled<T>(fd: Int32 = STDIN_FILENO, _ body: () throws -> T) rethrows -> T {
        try withSettings(fd: fd, { $0.c_lflag &= ~tcflag_t(ECHO) }, body)
    }

    /// Runs `body` with the settings of `fd` changed by `change` when it is a terminal
    /// (`tcgetattr`/`tcsetattr`), then puts the old ones back; otherwise just runs it.
    public static func withSettings<T>(
        fd: Int32 = STDIN_FILENO, _ change: (inout termios) -> Void, _ body: () throws -> T
    ) rethrows -> T {
        var original = termios()
        guard isatty(fd) == 1, tcgetattr(fd, &original) == 0 else { return try body() }
        var changed = original
        change(&changed)
        saved.lock.withLock { saved.settings = (fd, original) }
        _ = tcsetattr(fd, TCSADRAIN, &changed)
        defer { restore() }
        return try body()
    }

    /// Puts back the settings a prompt changed, if any. Safe to call at any time, from any thread.
    public static func restore() {
        saved.lock.withLock {
            guard var settings = saved.settings else { return }
            _ = tcsetattr(settings.fd, TCSADRAIN, &settings.value)
            saved.settings = nil
        }
    }
}
