import Foundation

// MARK: - LineHistory

/// The lines typed at one prompt so far, oldest first, for the ``LineEditor``'s Up and Down
/// keys. Kept in memory only, for the life of the process. Give one to command prompts only:
/// never to a password prompt (those use ``Console/readSecretLine(prompt:newlineTo:)``, which keeps
/// nothing) or to prompts for private text.
public final class LineHistory: @unchecked Sendable {
    // @unchecked: `lines` is read and written only under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []
    /// At most this many lines are kept; the oldest go first.
    public let limit: Int

    /// Creates an empty history of at most `limit` lines.
    public init(limit: Int = 500) {
        self.limit = max(limit, 1)
    }

    /// The lines, oldest first.
    public var entries: [String] { lock.withLock { lines } }

    /// Adds a line unless it is blank or the same as the last one.
    public func add(_ line: String) {
        guard line.contains(where: { !$0.isWhitespace }) else { return }
        lock.withLock {
            guard lines.last != line else { return }
            lines.append(line)
            if lines.count > limit { lines.removeFirst(lines.count - limit) }
        }
    }
}
