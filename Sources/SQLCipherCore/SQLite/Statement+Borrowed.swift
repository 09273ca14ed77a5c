internal import CSQLCipher
import Foundation

// MARK: - Binding without a copy

// A text or blob bound SQLITE_TRANSIENT is copied by SQLite into memory of its own, allocated
// and freed at every bind (`sqlite3_bind_text` → `sqlite3VdbeMemSetStr` → `sqlite3Malloc`; the
// next bind frees it), a malloc and a free for every text or blob of a bulk insert. Bound
// SQLITE_STATIC, SQLite reads the caller's bytes during the step instead (an
// INSERT copies them into its record). That is safe only while the bytes live, so the step runs
// inside the closure that lends them (`withContiguousStorageIfAvailable`, `withUnsafeBytes`):
// no pointer is used after its scope. After the scope the parameter still names the bytes, but
// no step reads it again before it is rebound: every entry point checks the argument count and
// binds every parameter before it steps (`checkArgumentCount`), and
// `cachedStatement(clearingBindings: true)` clears them (`sqlite3_clear_bindings`).

extension Statement {
    /// Binds `string`'s UTF-8 in place without a copy (`SQLITE_STATIC`) at a 1-based index and
    /// runs `body` (which steps) while the bytes are lent; a string without contiguous UTF-8
    /// (bridged, lazily decoded) is bound with a copy.
    @usableFromInline
    func withBorrowed(text string: String, at index: Int32, _ body: () throws -> Void) throws {
        let done: Void? = try string.utf8.withContiguousStorageIfAvailable { bytes in
            try check(bindResult: csqlcipher_bind_text_nocopy(handle, index, bytes.baseAddress, Int32(bytes.count)))
            try body()
        }
        if done == nil {
            try bind(text: string, at: index)
            try body()
        }
    }

    /// Binds `data`'s bytes without a copy (`SQLITE_STATIC`) at a 1-based index and runs `body`
    /// while they are lent; an empty `Data` binds an empty blob, not NULL.
    @usableFromInline
    func withBorrowed(blob data: Data, at index: Int32, _ body: () throws -> Void) throws {
        try data.withUnsafeBytes { bytes in
            let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)
            try check(bindResult: csqlcipher_bind_blob_nocopy(handle, index, base, Int32(bytes.count)))
            try body()
        }
    }

    /// Binds `value` at the 1-based `index` and runs `body` (which steps) while it is bound: a
    /// `String`, `String?` or `Data` without a copy (see above), any other value through its own
    /// ``DatabaseValueConvertible/bind(to:)``. The type tests are constants once the caller is
    /// specialised.
    @inlinable
    func withBinding<A: DatabaseValueConvertible>(_ value: A, at index: Int32, _ body: () throws -> Void) throws {
        if A.self == String.self {
            try withBorrowed(text: value as! String, at: index, body)
        } else if A.self == String?.self, let text = value as! String? {
            try withBorrowed(text: text, at: index, body)
        } else if A.self == Data.self {
            try withBorrowed(blob: value as! Data, at: index, body)
        } else if A.self == Data?.self, let data = value as! Data? {
            try withBorrowed(blob: data, at: index, body)
        } else {
            try bind(value, at: index)
            try body()
        }
    }
}

// MARK: - One to four values, each lent while the statement steps

extension Statement {
    /// Binds 1 value at indexes 1…1 and runs `body` while every one is bound (texts and
    /// blobs lent without a copy), after the statement has been checked to have 1 parameter.
    @inlinable
    package func withBindings<A: DatabaseValueConvertible>(
        _ a: A, _ body: () throws -> Void
    ) throws {
        try withBinding(a, at: 1, body)
    }

    /// Binds 2 values at indexes 1…2 and runs `body` while every one is bound (texts and
    /// blobs lent without a copy), after the statement has been checked to have 2 parameters.
    @inlinable
    package func withBindings<A: DatabaseValueConvertible, B: DatabaseValueConvertible>(
        _ a: A, _ b: B, _ body: () throws -> Void
    ) throws {
        try withBindings(a) { try withBinding(b, at: 2, body) }
    }

    /// Binds 3 values at indexes 1…3 and runs `body` while every one is bound (texts and
    /// blobs lent without a copy), after the statement has been checked to have 3 parameters.
    @inlinable
    package func withBindings<A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible>(
        _ a: A, _ b: B, _ c: C, _ body: () throws -> Void
    ) throws {
        try withBindings(a, b) { try withBinding(c, at: 3, body) }
    }

    /// Binds 4 values at indexes 1…4 and runs `body` while every one is bound (texts and
    /// blobs lent without a copy), after the statement has been checked to have 4 parameters.
    @inlinable
    package func withBindings<
        A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible, D: DatabaseValueConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D, _ body: () throws -> Void
    ) throws {
        try withBindings(a, b, c) { try withBinding(d, at: 4, body) }
    }
}
