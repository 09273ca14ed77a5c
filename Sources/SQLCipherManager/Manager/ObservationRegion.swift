// MARK: - ObservationRegion
import SQLCipherCore

/// What an observed query depends on: the tables its last run read, as SQLite's authorizer
/// reported them while its statements compiled, or everything when that is not known (before
/// the first run, or a query that named no table).
///
/// The tables are an array: a query reads a few, and comparing short names (Swift keeps them
/// inline) costs less than hashing each written table once per observation and commit.
enum ObservationRegion: Sendable, Equatable {
    case tables([String])
    case everything

    init(reads: Set<String>) { self = reads.isEmpty ? .everything : .tables(reads.sorted()) }

    /// `true` when a commit that changed `access` may change the query's result: it wrote one
    /// of the tables, or changed the schema.
    func isTouched(by access: TableAccess) -> Bool {
        if access.changesSchema { return true }
        switch self {
        case .everything: return !access.writes.isEmpty
        case .tables(let tables): return access.writes.contains { tables.contains($0) }
        }
    }
}
