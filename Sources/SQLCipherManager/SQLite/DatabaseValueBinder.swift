import Foundation

// MARK: - DatabaseValueBinder

/// One parameter of a statement being bound: what ``DatabaseValueConvertible/bind(to:)``
/// receives.
///
/// The binder is opaque. A custom type either keeps the default `bind(to:)` (which binds its
/// ``DatabaseValueConvertible/databaseValue``) or forwards to a value of a built-in type,
/// which writes itself straight to SQLite without building a ``DatabaseValue``:
///
/// ```swift
/// struct NoteID: DatabaseValueConvertible {
///     var rawValue: Int64
///     var databaseValue: DatabaseValue { .integer(rawValue) }
///     init?(databaseValue: DatabaseValue) { … }
///     func bind(to binder: DatabaseValueBinder) throws { try rawValue.bind(to: binder) }
/// }
/// ```
///
/// A binder is valid only during the `bind(to:)` call that receives it.
public struct DatabaseValueBinder {
    @usableFromInline let statement: Statement
    /// The 1-based parameter index.
    @usableFromInline let index: Int32

    @usableFromInline
    init(statement: Statement, index: Int32) {
        self.statement = statement
        self.index = index
    }

    // MARK: - Binding

    func bind(_ value: DatabaseValue) throws { try statement.bind(value, at: index) }
    func bind(int64 value: Int64) throws { try statement.bind(int64: value, at: index) }
    func bind(double value: Double) throws { try statement.bind(double: value, at: index) }
    func bind(text value: String) throws { try statement.bind(text: value, at: index) }
    func bind(blob value: Data) throws { try statement.bind(blob: value, at: index) }
    func bindNull() throws { try statement.bindNull(at: index) }
}

// A binder wraps a non-thread-safe statement for the duration of one call.
@available(*, unavailable)
extension DatabaseValueBinder: Sendable {}
