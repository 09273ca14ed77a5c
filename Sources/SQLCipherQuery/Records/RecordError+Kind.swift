// MARK: - The failures

extension RecordError {
    /// One case per failure, with the details its message needs. Each case has a static factory
    /// of the same name and labels on ``RecordError`` (documented there) and a ``Code``: a case added
    /// here needs both, which the switch in ``code`` enforces.
    enum Kind: Sendable, Hashable {
        case tableMissing(table: String)
        case unknownColumns(table: String, columns: [String])
        case noColumns(table: String)
        case noPrimaryKey(table: String)
        case primaryKeyNotEncoded(table: String, column: String)
        case primaryKeyIsNull(table: String, column: String)
        case notFound(table: String)
        case wrongKey(table: String, expected: [String], given: [String])
        case columnsDiffer(table: String, expected: [String], found: [String], index: Int)
        case unencodable(table: String, column: String, reason: String)
    }
}

// MARK: - The failures, one factory each

extension RecordError {
    /// The database has no table or view of this name.
    public static func tableMissing(table: String) -> Self {
        Self(.tableMissing(table: table))
    }

    /// The record encodes columns the table does not have.
    public static func unknownColumns(table: String, columns: [String]) -> Self {
        Self(.unknownColumns(table: table, columns: columns))
    }

    /// The record encodes no column at all.
    public static func noColumns(table: String) -> Self {
        Self(.noColumns(table: table))
    }

    /// The primary key names no column (an empty `primaryKey`).
    public static func noPrimaryKey(table: String) -> Self {
        Self(.noPrimaryKey(table: table))
    }

    /// The record's encoding has no value for a primary-key column (its coding keys lack it).
    public static func primaryKeyNotEncoded(table: String, column: String) -> Self {
        Self(.primaryKeyNotEncoded(table: table, column: column))
    }

    /// An update or a delete of a record whose primary-key column is `nil` (NULL): it names no row.
    public static func primaryKeyIsNull(table: String, column: String) -> Self {
        Self(.primaryKeyIsNull(table: table, column: column))
    }

    /// An update found no row with the record's primary key.
    public static func notFound(table: String) -> Self {
        Self(.notFound(table: table))
    }

    /// A key given to `fetch` or `delete` does not name exactly the primary-key columns.
    public static func wrongKey(table: String, expected: [String], given: [String]) -> Self {
        Self(.wrongKey(table: table, expected: expected, given: given))
    }

    /// A record of a batch encodes other columns than the batch's first record (`index` is its
    /// position in the batch, from 0).
    public static func columnsDiffer(table: String, expected: [String], found: [String], index: Int) -> Self {
        Self(.columnsDiffer(table: table, expected: expected, found: found, index: index))
    }

    /// A value the record encodes cannot be stored in one column: `reason` says why.
    public static func unencodable(table: String, column: String, reason: String) -> Self {
        Self(.unencodable(table: table, column: column, reason: reason))
    }
}
