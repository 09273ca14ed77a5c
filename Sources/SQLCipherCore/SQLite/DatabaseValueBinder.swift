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
/// A binder is valid only during the `bind(to:)` call that receives it. One kept and used after
/// its database closed throws ``SQLiteError`` `misuse`.
public struct DatabaseValueBinder {
    /// The statement, retained: a binder kept past its `bind(to:)` call (which it should not
    /// be) still refers to a live object, never to freed memory. The fixed-arity binds
    /// (Statement+Fixed.swift) leave the retain a few instructions a row of a bulk insert.
    @usableFromInline let statement: Statement
    /// The 1-based parameter index.
    @usableFromInline package let index: Int32
    /// `true` when texts and blobs bind from the statement's own copy (``LentBytes``) rather
    /// than SQLite's: the binders of one binding pass, which starts it.
    @usableFromInline let lends: Bool

    @usableFromInline
    init(statement: Statement, index: Int32, lends: Bool = false) {
        self.statement = statement
        self.index = index
        self.lends = lends
    }

    // MARK: - Binding

    package func bind(_ value: DatabaseValue) throws { try live().bind(value, at: index) }
    package func bind(int64 value: Int64) throws { try live().bind(int64: value, at: index) }
    package func bind(double value: Double) throws { try live().bind(double: value, at: index) }
    package func bind(text value: String) throws {
        if lends { try live().bind(lentText: value, at: index) } else { try live().bind(text: value, at: index) }
    }
    package func bind(blob value: Data) throws {
        if lends { try live().bind(lentBlob: value, at: index) } else { try live().bind(blob: value, at: index) }
    }
    func bindNull() throws { try live().bindNull(at: index) }

    /// The statement, unless a binder kept past its call is used after the connection closed
    /// and finalized it: then `misuse`, and no C call on the freed handle.
    private func live() throws -> Statement {
        guard !statement.isFinalized else { throw SQLiteError.databaseClosed(sql: statement.sql) }
        return statement
    }
}

// A binder wraps a non-thread-safe statement for the duration of one call.
@available(*, unavailable)
extension DatabaseValueBinder: Sendable {}
