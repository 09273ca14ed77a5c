// MARK: - Row

/// One result row: column names and values, copied out of the statement.
public struct Row: Sendable, Hashable, CustomStringConvertible {
    /// The column names, in select order.
    public let columnNames: [String]
    /// The values, in select order.
    public let values: [DatabaseValue]

    /// Creates a row.
    public init(columnNames: [String], values: [DatabaseValue]) {
        self.columnNames = columnNames
        self.values = values
    }

    /// The number of columns.
    public var count: Int { values.count }

    /// The value at a column index.
    public subscript(index: Int) -> DatabaseValue { values[index] }

    /// The value of the first column with this name, or `nil` when there is no such column.
    public subscript(name: String) -> DatabaseValue? {
        columnNames.firstIndex(of: name).map { values[$0] }
    }

    /// The value at a column index as a Swift type, or `nil` for NULL or an unconvertible value.
    public func value<T: DatabaseValueConvertible>(_ index: Int, as type: T.Type = T.self) -> T? {
        T(databaseValue: values[index])
    }

    /// The value of a named column as a Swift type, or `nil`.
    public func value<T: DatabaseValueConvertible>(_ name: String, as type: T.Type = T.self) -> T? {
        self[name].flatMap { T(databaseValue: $0) }
    }

    /// `name=value` for each column, separated by commas (values as ``DatabaseValue/description``).
    public var description: String {
        zip(columnNames, values).map { "\($0)=\($1)" }.joined(separator: ", ")
    }
}
