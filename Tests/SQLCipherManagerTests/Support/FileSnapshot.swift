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

    /// Names of files this module's flows leave behind while they run (`.scm-*`).
    var leftovers: [String] { files.keys.filter { $0.contains(".scm-") }.sorted() }
}
