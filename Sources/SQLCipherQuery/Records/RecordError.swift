import Foundation

// MARK: - RecordError

/// Why a record call (``Database/insert(_:)``, ``Database/update(_:)``, ``Database/save(_:)``,
/// ``Database/delete(_:)``, ``Database/fetch(_:id:)``…) refused. In every case nothing was
/// written: a batch is rolled back whole. No case carries a value of the record, only the
/// names of the table and its columns. Failures of SQLite itself (a constraint, a full disk)
/// stay ``SQLiteError``s. A struct with a ``Code``, like ``DatabaseManagerError``, so that a later
/// version can add a failure without breaking an app's `switch` (match `error.code`).
public struct RecordError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The failure and its details, one case per failure; the library switches over it, an app
    /// over ``code``.
    let kind: Kind

    /// The error of `kind`.
    init(_ kind: Kind) {
        self.kind = kind
    }

    /// The ``description``, so that `localizedDescription` says what happened and what to do.
    public var errorDescription: String? { description }

    /// What is wrong and what to do about it; nothing was written.
    public var description: String {
        switch kind {
        case .tableMissing(let table):
            return "no table \(table) in the database: create it (a migration step) or name the right table; nothing was written"
        case .unknownColumns(let table, let columns):
            return "table \(table) has no column \(Self.list(columns)): add the column, or map the property to an existing one "
                + "with CodingKeys; nothing was written"
        case .noColumns(let table):
            return "the record for \(table) encodes no column: give the type stored properties (or an encode(to:) that "
                + "writes a keyed container); nothing was written"
        case .noPrimaryKey(let table):
            return "the primary key of \(table) names no column: give primaryKey the key's column names; nothing was written"
        case .primaryKeyNotEncoded(let table, let column):
            return "the record for \(table) encodes no primary-key column \(column): add it to the type's coding keys, "
                + "or give primaryKey the right column names; nothing was written"
        case .primaryKeyIsNull(let table, let column):
            return "the record for \(table) has no primary key value (\(column) is nil), so it names no row: insert or "
                + "save it first, or fetch the stored record; nothing was written"
        case .notFound(let table):
            return "no row of \(table) has the record's primary key: insert it, or use save to insert or update; nothing was written"
        case .wrongKey(let table, let expected, let given):
            return "the key \(Self.list(given)) does not match the primary key \(Self.list(expected)) of \(table): give "
                + "a value for each primary-key column and no other"
        case .columnsDiffer(let table, let expected, let found, let index):
            return "record \(index) of the batch for \(table) encodes \(Self.list(found)), the first encodes "
                + "\(Self.list(expected)): a batch shares one statement, so every record must encode the same columns "
                + "(insert the others one by one); nothing was written"
        case .unencodable(let table, let column, let reason):
            return "column \(column) of \(table) cannot be stored: \(reason); nothing was written"
        }
    }

    private static func list(_ names: [String]) -> String { "(" + names.joined(separator: ", ") + ")" }
}
