// MARK: - Codes

extension RecordError {
    /// Which failure an error is, without its details: one static member per failure, to match
    /// in a `switch` or a `catch`. Not an enum, so that a later version can add a code without
    /// breaking an app: a `switch` over codes needs a `default`, which is where a new code goes.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// The code's name, as its static member is spelled.
        public var description: String { name }

        /// The code of ``RecordError/tableMissing(table:)``.
        public static let tableMissing = Self("tableMissing")
        /// The code of ``RecordError/unknownColumns(table:columns:)``.
        public static let unknownColumns = Self("unknownColumns")
        /// The code of ``RecordError/noColumns(table:)``.
        public static let noColumns = Self("noColumns")
        /// The code of ``RecordError/noPrimaryKey(table:)``.
        public static let noPrimaryKey = Self("noPrimaryKey")
        /// The code of ``RecordError/primaryKeyNotEncoded(table:column:)``.
        public static let primaryKeyNotEncoded = Self("primaryKeyNotEncoded")
        /// The code of ``RecordError/primaryKeyIsNull(table:column:)``.
        public static let primaryKeyIsNull = Self("primaryKeyIsNull")
        /// The code of ``RecordError/notFound(table:)``.
        public static let notFound = Self("notFound")
        /// The code of ``RecordError/wrongKey(table:expected:given:)``.
        public static let wrongKey = Self("wrongKey")
        /// The code of ``RecordError/columnsDiffer(table:expected:found:index:)``.
        public static let columnsDiffer = Self("columnsDiffer")
        /// The code of ``RecordError/unencodable(table:column:reason:)``.
        public static let unencodable = Self("unencodable")
    }

    /// Which failure this is.
    public var code: Code {
        switch kind {
        case .tableMissing: .tableMissing
        case .unknownColumns: .unknownColumns
        case .noColumns: .noColumns
        case .noPrimaryKey: .noPrimaryKey
        case .primaryKeyNotEncoded: .primaryKeyNotEncoded
        case .primaryKeyIsNull: .primaryKeyIsNull
        case .notFound: .notFound
        case .wrongKey: .wrongKey
        case .columnsDiffer: .columnsDiffer
        case .unencodable: .unencodable
        }
    }
}

extension RecordError.Code {
    /// Whether `error` is a ``RecordError`` with this code: `catch RecordError.Code.x { … }`.
    @_disfavoredOverload
    public static func ~= (code: Self, error: any Error) -> Bool {
        (error as? RecordError)?.code == code
    }

    /// Whether `error` has this code: `case .x:` in a `switch` over a ``RecordError``.
    public static func ~= (code: Self, error: RecordError) -> Bool {
        error.code == code
    }
}

extension RecordError {
    /// Whether `error` is a ``RecordError`` equal to `pattern`: `catch RecordError.x(…) { … }`.
    @_disfavoredOverload
    public static func ~= (pattern: Self, error: any Error) -> Bool {
        (error as? RecordError) == pattern
    }
}
