import Foundation
import SQLCipherManager

// MARK: - OpenCheck

/// One open of a (possibly hostile) database directory, and what is wrong with how it went: a
/// thrown error that is not a ``DatabaseManagerError``, any file changed (or added, or removed)
/// by a failed open, or an open slower than ``slowSeconds``. A crash or a hang stops the
/// process (the campaign's alarm, libFuzzer's `-timeout`).
public struct OpenCheck: Sendable {
    public static let slowSeconds = 20.0

    public struct Result: Sendable {
        /// `opened`, or the error's case name.
        public let outcome: String
        public let problems: [String]
        /// The failed open changed a file.
        public var changedFiles: Bool { problems.contains { $0.hasPrefix("failed open") } }
    }

    public init() {}

    /// Opens `<directory>/test.db` with `password` and checks the outcome.
    public func run(directory: URL, password: String, checksIntegrity: Bool) -> Result {
        var configuration = Seeds.configuration
        configuration.checksIntegrityOnOpen = checksIntegrity
        let manager = DatabaseManager(url: directory.appendingPathComponent("test.db"), configuration: configuration)
        let before = FileSnapshot(directory)
        let start = Date()
        var problems: [String] = []
        var outcome = "opened"
        do {
            try manager.open(password: password)
            _ = try? manager.readSync { db in try db.scalar(Int.self, "SELECT count(*) FROM item") }
            manager.close()
        } catch let error as DatabaseManagerError {
            outcome = Self.caseName(error)
            let changes = FileSnapshot(directory).differences(from: before)
            if !changes.isEmpty { problems.append("failed open (\(outcome)) changed files: \(changes)") }
            if case .sqlite = error { problems.append("untranslated SQLite error: \(error)") }
        } catch {
            outcome = "untyped"
            problems.append("untyped error \(type(of: error)): \(error)")
        }
        let seconds = Date().timeIntervalSince(start)
        if seconds > Self.slowSeconds { problems.append("open took \(Int(seconds)) s") }
        return Result(outcome: outcome, problems: problems)
    }

    /// The enum case's name (`incorrectPasswordOrSettings`, `corrupt`…).
    public static func caseName(_ error: DatabaseManagerError) -> String {
        Mirror(reflecting: error).children.first?.label ?? "\(error)"
    }
}
