import Foundation

// MARK: - FileSnapshot

/// The names and bytes of every file in a folder, to prove that a failed flow changed nothing.
struct FileSnapshot: Equatable, CustomStringConvertible {
    let files: [String: Data]

    init(_ directory: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var files: [String: Data] = [:]
        for name in names {
            files[name] = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) ?? Data()
        }
        self.files = files
    }

    var description: String { files.keys.sorted().map { "\($0) (\(files[$0]?.count ?? 0) bytes)" }.joined(separator: ", ") }

    /// What differs from `earlier`, for a failure message.
    func differences(from earlier: FileSnapshot) -> [String] {
        Set(files.keys).union(earlier.files.keys).sorted().compactMap { name in
            switch (earlier.files[name], files[name]) {
            case (nil, _): return "\(name) was added"
            case (_, nil): return "\(name) was removed"
            case let (before?, after?) where before != after: return "\(name) changed (\(before.count) → \(after.count) bytes)"
            default: return nil
            }
        }
    }

    /// Names of files this module's flows leave behind while they run (`.scm-*`).
    var leftovers: [String] { files.keys.filter { $0.contains(".scm-") }.sorted() }
}
