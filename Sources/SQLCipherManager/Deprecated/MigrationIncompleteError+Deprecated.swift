// MARK: - Deprecated spellings (removed in the next release)

/// Deprecated: use ``MigrationIncompleteError`` (every error type's name ends in `Error`).
@available(*, deprecated, renamed: "MigrationIncompleteError")
public typealias SchemaMigratorIncomplete = MigrationIncompleteError
