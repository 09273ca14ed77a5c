import Dispatch
import Foundation

// MARK: - InterruptHandler

/// Handles Ctrl-C (SIGINT) and SIGTERM outside the signal context: the signals are ignored at
/// the process level and delivered to a dispatch source instead, whose handler may take locks,
/// close a database and print. Then the terminal's echo is restored and the process exits with
/// 128 + the signal number, as shells expect.
public enum InterruptHandler {
    /// Keeps the dispatch sources alive for the life of the process.
    private final class Sources: @unchecked Sendable {
        // @unchecked: `list` is appended to only under `lock`.
        let lock = NSLock()
        var list: [any DispatchSourceSignal] = []
    }

    private static let sources = Sources()

    /// Installs `cleanup` for SIGINT and SIGTERM. Call once, from the main thread, at start-up.
    public static func install(_ cleanup: @escaping @Sendable (_ signal: Int32) -> Void) {
        for number in POSIXTerminal.interruptSignals {
            POSIXTerminal.ignore(signal: number)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                EchoControl.restore()
                cleanup(number)
                exit(128 + number)
            }
            source.resume()
            sources.lock.withLock { sources.list.append(source) }
        }
    }
}
