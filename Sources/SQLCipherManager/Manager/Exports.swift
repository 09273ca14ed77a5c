// One `import SQLCipherManager` gives an app the whole public API: the types of the lower
// targets (queries, keys, errors, the SQLite values) are re-exported from here.
@_exported import SQLCipherCore
@_exported import SQLCipherEngine
@_exported import SQLCipherKeys
@_exported import SQLCipherQuery
