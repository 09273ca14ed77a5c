// MARK: - Errno

/// The `errno` of a failed POSIX call, as swift-system's `Errno`: the code and its message.
/// The named values (``noSuchFile``, ``fileExists`` …) are defined with the C library's
/// constants in `POSIX.swift`; compare with `==` or match them in a `switch`.
package struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C value (`ENOENT` …).
    let code: Int32

    package init(code: Int32) { self.code = code }

    /// The calling thread's `errno`, to be read right after the call that failed and set it.
    static var current: Errno { Errno(code: POSIX.errorNumber) }

    /// The C library's message for it (`strerror`), such as "No such file or directory".
    package var description: String { POSIX.message(for: code) }
}
