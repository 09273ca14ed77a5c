import Foundation

// MARK: - ProgressLine

/// A one-line percentage on stderr for long operations (`Encrypting… 42%`), redrawn in place.
/// Draws nothing when stderr is not a terminal, so logs and pipes stay clean.
public final class ProgressLine: @unchecked Sendable {
    // @unchecked: `lastPercent` is read and written only under `lock`.
    private let label: String
    private let enabled: Bool
    private let lock = NSLock()
    private var lastPercent = -1

    /// Creates a progress line; `enabled` defaults to "stderr is a terminal".
    public init(_ label: String, enabled: Bool = Console.stderrIsTerminal) {
        self.label = label
        self.enabled = enabled
    }

    /// Shows `fraction` (0…1) when the whole percentage changed.
    public func update(_ fraction: Double) {
        guard enabled else { return }
        let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        let changed = lock.withLock {
            defer { lastPercent = percent }
            return percent != lastPercent
        }
        if changed { Console.writeError("\r\(label)… \(percent)%") }
    }

    /// Ends the line (if one was drawn).
    public func finish() {
        guard enabled, lock.withLock({ lastPercent >= 0 }) else { return }
        Console.writeError("\n")
    }
}
