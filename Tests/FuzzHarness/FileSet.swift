import Foundation

// MARK: - FileSet

/// A database file and the sidecars beside it, by suffix: `""` (the database), `"-wal"`,
/// `"-journal"`. What the mutation campaign mutates and the fuzz target decodes.
public struct FileSet: Sendable {
    public var files: [String: Data]

    public init(_ files: [String: Data]) { self.files = files }

    /// Reads `<path>` and whichever of its `-wal` and `-journal` exist.
    public init(readingAt path: String) {
        var files: [String: Data] = [:]
        for suffix in Self.suffixes {
            if let data = FileManager.default.contents(atPath: path + suffix) { files[suffix] = data }
        }
        self.files = files
    }

    public static let suffixes = ["", "-wal", "-journal"]
    public static let sidecars = ["-wal", "-journal"]

    public var main: Data {
        get { files[""] ?? Data() }
        set { files[""] = newValue }
    }

    /// Writes the files as `<path>`, `<path>-wal`, `<path>-journal`.
    public func write(to path: String) throws {
        for (suffix, data) in files { try data.write(to: URL(fileURLWithPath: path + suffix)) }
    }
}

// MARK: - FileSnapshot

/// The names and bytes of every file in a directory, to prove that a failed flow changed nothing.
public struct FileSnapshot: Equatable, CustomStringConvertible {
    public let files: [String: Data]

    public init(_ directory: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var files: [String: Data] = [:]
        for name in names {
            files[name] = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) ?? Data()
        }
        self.files = files
    }

    public var description: String {
        files.keys.sorted().map { "\($0) (\(files[$0]?.count ?? 0) bytes)" }.joined(separator: ", ")
    }

    /// What differs from `earlier`, for a failure message.
    public func differences(from earlier: FileSnapshot) -> [String] {
        Set(files.keys).union(earlier.files.keys).sorted().compactMap { name in
            switch (earlier.files[name], files[name]) {
            case (nil, _): return "\(name) was added"
            case (_, nil): return "\(name) was removed"
            case (let before?, let after?) where before != after: return "\(name) changed (\(before.count) → \(after.count) bytes)"
            default: return nil
            }
        }
    }

    /// Names of files this module's flows leave behind while they run (`.scm-*`).
    public var leftovers: [String] { files.keys.filter { $0.contains(".scm-") }.sorted() }
}
