import Foundation

// MARK: - ProgressLine

/// A one-line percentage on stderr for long operations (`Encrypting… 42%`), redrawn in place
/// and ended at 100 %. Draws nothing when stderr is not a terminal, so logs and pipes stay clean.
public final class ProgressLine: @unchecked Sendable {
    // @unchecked: `lastPercent` and `isOpen` are read and written only under `lock`.
    private let label: String
    private let enabled: Bool
    private let lock = NSLock()
    private var lastPercent = -1
    /// `true` while a line is drawn and not yet ended.
    private var isOpen = false

    /// Creates a progress line; `enabled` defaults to "stderr is a terminal".
    public init(_ label: String, enabled: Bool = Console.stderrIsTerminal) {
        self.label = label
        self.enabled = enabled
    }

    /// Shows `fraction` (0…1) when the whole percentage changed; 100 % ends the line.
    public func update(_ fraction: Double) {
        guard enabled else { return }
        let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        lock.withLock {
            guard percent != lastPercent else { return }
            lastPercent = percent
            isOpen = percent < 100
            Console.writeError("\r\(label)… \(percent)%" + (isOpen ? "" : "\n"))
        }
    }

    /// Ends the line if it is still open (the operation stopped before 100 %).
    public func finish() {
        lock.withLock {
            if isOpen { Console.writeError("\n") }
            isOpen = false
        }
    }
}
