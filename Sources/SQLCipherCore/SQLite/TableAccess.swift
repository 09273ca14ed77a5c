// MARK: - TableAccess

/// The tables of the main database that statements read or write, by lowercased name (SQLite
/// compares table names without case), and whether one changes the schema.
package struct TableAccess: Sendable, Equatable {
    var reads: Set<String> = []
    package var writes: Set<String> = []
    package var changesSchema = false

    /// Which accesses the authorizer reports (`CSQLCIPHER_REPORT_*`).
    struct Kinds: OptionSet {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }
        static let reads = Kinds(rawValue: 1)
        /// Writes and schema changes.
        package static let writes = Kinds(rawValue: 2)
    }

    var isEmpty: Bool { reads.isEmpty && writes.isEmpty && !changesSchema }

    mutating func formUnion(_ other: TableAccess) {
        reads.formUnion(other.reads)
        writes.formUnion(other.writes)
        changesSchema = changesSchema || other.changesSchema
    }

    func union(_ other: TableAccess) -> TableAccess {
        var result = self
        result.formUnion(other)
        return result
    }

    /// A table name from SQLite, as compared here.
    package static func name(_ table: UnsafePointer<CChar>) -> String { String(cString: table).lowercased() }
}
