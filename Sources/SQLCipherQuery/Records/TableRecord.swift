// MARK: - TableRecord

/// A type stored as one row of a table: its name and its primary key, for the record calls of
/// ``Database`` (``Database/insert(_:)``, ``Database/update(_:)``, ``Database/save(_:)``,
/// ``Database/delete(_:)``, ``Database/fetch(_:id:)``).
///
/// ```swift
/// struct Note: Codable, TableRecord {
///     static let databaseTableName = "note"          // primaryKey: ["id"] by default
///     var id: Int64?
///     var title: String
/// }
/// ```
///
/// The columns are the type's coding keys (`CodingKeys` maps other names); their values are
/// converted as statement arguments are (``DatabaseValueConvertible``). The same calls take a
/// table name instead, for a type that does not conform (`insert(_:into:)`, `update(_:in:primaryKey:)`…).
public protocol TableRecord {
    /// The table's name, as written in `CREATE TABLE` (quoted by the calls, never pasted raw).
    static var databaseTableName: String { get }
    /// The primary key's columns, in the order of `PRIMARY KEY (…)`: `["id"]` unless a type
    /// says otherwise; several for a composite key.
    static var primaryKey: [String] { get }
}

extension TableRecord {
    /// `["id"]`.
    public static var primaryKey: [String] { ["id"] }
}
