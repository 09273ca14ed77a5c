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
    /// The statement, not retained: a binder lives only during the `bind(to:)` call of a caller
    /// that holds the statement, and a strong reference cost a retain and a release per value.
    @usableFromInline let statement: Unmanaged<Statement>
    /// The 1-based parameter index.
    @usableFromInline let index: Int32

    @usableFromInline
    init(statement: Statement, index: Int32) {
        self.statement = .passUnretained(statement)
        self.index = index
    }

    // MARK: - Binding

    func bind(_ value: DatabaseValue) throws { try statement._withUnsafeGuaranteedRef { try $0.bind(value, at: index) } }
    func bind(int64 value: Int64) throws { try statement._withUnsafeGuaranteedRef { try $0.bind(int64: value, at: index) } }
    func bind(double value: Double) throws { try statement._withUnsafeGuaranteedRef { try $0.bind(double: value, at: index) } }
    func bind(text value: String) throws { try statement._withUnsafeGuaranteedRef { try $0.bind(text: value, at: index) } }
    func bind(blob value: Data) throws { try statement._withUnsafeGuaranteedRef { try $0.bind(blob: value, at: index) } }
    func bindNull() throws { try statement._withUnsafeGuaranteedRef { try $0.bindNull(at: index) } }
}

// A binder wraps a non-thread-safe statement for the duration of one call.
@available(*, unavailable)
extension DatabaseValueBinder: Sendable {}
