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

    /// The value as text: the number, the string itself, `<N bytes>` for a blob, `NULL`.
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
///
/// The integers, `Bool`, `Double`, `String`, `Data`, ``DatabaseValue`` and `Optional` conform
/// here; `Date` (SQLite's `YYYY-MM-DD HH:MM:SS.SSS` UTC text; reads its other date texts and
/// Unix time), `UUID` (a 16-byte blob; reads its text too), `URL` (text) and `Decimal` (text)
/// beside them (DatabaseValue+Foundation.swift): each conformance says what it stores and what
/// it accepts. A `Decodable` row reads its properties of these types through the conformance.
public protocol DatabaseValueConvertible: Sendable {
    /// The value as SQLite stores it.
    var databaseValue: DatabaseValue { get }
    /// Reads a value, or `nil` when the stored value cannot represent `Self` (NULL included).
    init?(databaseValue: DatabaseValue)
    /// Binds the value to one statement parameter.
    ///
    /// The default implementation binds ``databaseValue``. The built-in types (integers, `Bool`,
    /// `Double`, `String`, `Data`, `Optional`, ``DatabaseValue``) bind themselves directly, without
    /// building a ``DatabaseValue``; a custom type can forward to one of them (see
    /// ``DatabaseValueBinder``). Called by ``PreparedStatement`` and `Database`'s `execute`,
    /// `fetchOne` and `scalar`.
    ///
    /// - Throws: ``SQLiteError`` when SQLite refuses the value (for example `tooBig`).
    func bind(to binder: DatabaseValueBinder) throws
}

extension DatabaseValueConvertible {
    /// Binds ``DatabaseValueConvertible/databaseValue``.
    public func bind(to binder: DatabaseValueBinder) throws {
        try binder.bind(databaseValue)
    }
}

extension DatabaseValue: DatabaseValueConvertible {
    /// The value itself.
    public var databaseValue: DatabaseValue { self }
    /// Binds the value as it is.
    public func bind(to binder: DatabaseValueBinder) throws { try binder.bind(self) }
    /// Any stored value, NULL included: never `nil`.
    public init?(databaseValue: DatabaseValue) { self = databaseValue }
}

extension Int64: DatabaseValueConvertible {
    /// `.integer`.
    public var databaseValue: DatabaseValue { .integer(self) }
    /// Binds the integer (`sqlite3_bind_int64`).
    public func bind(to binder: DatabaseValueBinder) throws { try binder.bind(int64: self) }
    /// INTEGER; a REAL that is a whole number in range; TEXT that parses as one (`Int64(_:)`); otherwise `nil`.
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
    /// `.integer`.
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    /// Binds the integer (`sqlite3_bind_int64`).
    public func bind(to binder: DatabaseValueBinder) throws { try binder.bind(int64: Int64(self)) }
    /// As `Int64`, when it fits in `Int`; otherwise `nil`.
    public init?(databaseValue: DatabaseValue) {
        guard let value = Int64(databaseValue: databaseValue) else { return nil }
        self.init(exactly: value)
    }
}

extension Int32: DatabaseValueConvertible {
    /// `.integer`.
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    /// Binds the integer (`sqlite3_bind_int64`).
    public func bind(to binder: DatabaseValueBinder) throws { try binder.bind(int64: Int64(self)) }
    /// As `Int64`, when it fits in `Int32`; otherwise `nil`.
    public init?(databaseValue: DatabaseValue) {
        guard let value = Int64(databaseValue: databaseValue) else { return nil }
        self.init(exactly: value)
    }
}

extension Bool: DatabaseValueConvertible {
    /// `.integer(1)` or `.integer(0)`.
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
    /// Binds 1 or 0 (`sqlite3_bind_int64`).
    public func bind(to binder: DatabaseValueBinder) throws { try binder.bind(int64: self ? 1 : 0) }
    /// As `Int64`: `true` for anything but 0; `nil` for NULL, a blob or non-numeric text.
    public init?(databaseValue: DatabaseValue) {
        guard let value = Int64(databaseValue: databaseValue) else { return nil }
        self = value != 0
    }
}

extension Double: DatabaseValueConvertible {
    /// `.real`.
    public var databaseValue: DatabaseValue { .real(self) }
    /// Binds the double (`sqlite3_bind_double`).
    public func bind(to binder: DatabaseValueBinder) throws { try binder.bind(double: self) }
    /// REAL; INTEGER converted; TEXT that parses as a number; otherwise `nil`.
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
    /// `.text`.
    public var databaseValue: DatabaseValue { .text(self) }
    /// Binds the text from its UTF-8 in place (`sqlite3_bind_text`, copied by SQLite).
    public func bind(to binder: DatabaseValueBinder) throws { try binder.bind(text: self) }
    /// TEXT; an INTEGER or REAL written out; a BLOB decoded as UTF-8 (invalid bytes replaced); `nil` for NULL.
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
    /// `.blob` (an empty `Data` is an empty blob, not NULL).
    public var databaseValue: DatabaseValue { .blob(self) }
    /// Binds the bytes (`sqlite3_bind_blob`, copied by SQLite); empty data binds an empty blob.
    public func bind(to binder: DatabaseValueBinder) throws { try binder.bind(blob: self) }
    /// A BLOB; TEXT as its UTF-8 bytes; otherwise `nil`.
    public init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .blob(let value): self = value
        case .text(let value): self = Data(value.utf8)
        default: return nil
        }
    }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    /// The wrapped value's, or `.null` for `nil`.
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
    /// Binds the wrapped value through its own `bind(to:)`, or NULL.
    public func bind(to binder: DatabaseValueBinder) throws {
        if let self { try self.bind(to: binder) } else { try binder.bindNull() }
    }
    /// `.some(nil)` for NULL; the wrapped type's reading otherwise, `nil` when that fails.
    public init?(databaseValue: DatabaseValue) {
        if databaseValue.isNull {
            self = .none
            return
        }
        guard let value = Wrapped(databaseValue: databaseValue) else { return nil }
        self = .some(value)
    }
}
