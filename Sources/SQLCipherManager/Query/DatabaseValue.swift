import Foundation

// MARK: - DatabaseValue

/// One SQLite value: the storage classes INTEGER, REAL, TEXT, BLOB and NULL.
/// Bound with `sqlite3_bind_int64` / `_double` / `_text` / `_blob` / `_null` and read with
/// `sqlite3_column_*` according to `sqlite3_column_type`.
public enum DatabaseValue: Sendable, Hashable, CustomStringConvertible {
    /// INTEGER: a 64-bit signed integer.
    case integer(Int64)
    /// REAL: a double.
    case real(Double)
    /// TEXT, UTF-8.
    case text(String)
    /// BLOB: bytes.
    case blob(Data)
    /// NULL.
    case null

    /// `true` for SQL NULL.
    public var isNull: Bool { if case .null = self { true } else { false } }

    public var description: String {
        switch self {
        case .integer(let value): "\(value)"
        case .real(let value): "\(value)"
        case .text(let value): value
        case .blob(let value): "<\(value.count) bytes>"
        case .null: "NULL"
        }
    }
}

// MARK: - DatabaseValueConvertible

/// A Swift type that can be bound as a statement argument and read back from a column.
public protocol DatabaseValueConvertible: Sendable {
    /// The value as SQLite stores it.
    var databaseValue: DatabaseValue { get }
    /// Reads a value, or `nil` when the stored value cannot represent `Self` (NULL included).
    init?(databaseValue: DatabaseValue)
}

extension DatabaseValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self }
    public init?(databaseValue: DatabaseValue) { self = databaseValue }
}

extension Int64: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self) }
    public init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .integer(let value): self = value
        case .real(let value): self.init(exactly: value)
        case .text(let value): self.init(value)
        default: return nil
        }
    }
}

extension Int: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    public init?(databaseValue: DatabaseValue) {
        guard let value = Int64(databaseValue: databaseValue) else { return nil }
        self.init(exactly: value)
    }
}

extension Int32: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    public init?(databaseValue: DatabaseValue) {
        guard let value = Int64(databaseValue: databaseValue) else { return nil }
        self.init(exactly: value)
    }
}

extension Bool: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
    public init?(databaseValue: DatabaseValue) {
        guard let value = Int64(databaseValue: databaseValue) else { return nil }
        self = value != 0
    }
}

extension Double: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .real(self) }
    public init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .integer(let value): self = Double(value)
        case .real(let value): self = value
        case .text(let value): self.init(value)
        default: return nil
        }
    }
}

extension String: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(self) }
    public init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .text(let value): self = value
        case .integer(let value): self = String(value)
        case .real(let value): self = String(value)
        case .blob(let value): self.init(decoding: value, as: UTF8.self)
        case .null: return nil
        }
    }
}

extension Data: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .blob(self) }
    public init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .blob(let value): self = value
        case .text(let value): self = Data(value.utf8)
        default: return nil
        }
    }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
    public init?(databaseValue: DatabaseValue) {
        if databaseValue.isNull { self = .none; return }
        guard let value = Wrapped(databaseValue: databaseValue) else { return nil }
        self = .some(value)
    }
}
