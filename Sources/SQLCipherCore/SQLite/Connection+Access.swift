internal import CSQLCipher

// MARK: - Tables a statement reads and writes

extension Connection {
    /// Runs one compile (`sqlite3_prepare_v2`) and returns, while the authorizer reports
    /// (``CompileCounter/reporting``), what it reported for this compile alone; the
    /// connection's running ``CompileCounter/access`` gets it too.
    func compileReporting(_ compile: () -> Int32) -> (code: Int32, access: TableAccess?) {
        guard !compiles.reporting.isEmpty else { return (compile(), nil) }
        let before = compiles.access
        compiles.access = TableAccess()
        let code = compile()
        let access = compiles.access
        compiles.access = before.union(access)
        return (code, access)
    }

    /// The ``Statement`` for a handle just compiled. While reads are recorded, its reads are
    /// completed with the tables its program opens: SQLite 3.15's authorizer reports the
    /// columns a statement reads, so `SELECT count(*) FROM t` or a view read through `*`
    /// name no table there.
    func makeStatement(_ stmt: OpaquePointer, sql: String, access: TableAccess?) -> Statement {
        guard var access, compiles.reporting.contains(.reads), let opened = try? tablesOpened(by: stmt) else {
            return Statement(handle: stmt, sql: sql, connection: self, access: access)
        }
        access.reads.formUnion(opened)
        compiles.access.reads.formUnion(opened)
        return Statement(handle: stmt, sql: sql, connection: self, access: access)
    }

    /// The tables of the main database whose b-trees (the table's or one of its indexes') the
    /// statement's program opens for reading: `EXPLAIN` of its SQL, the root pages of its
    /// `OpenRead` instructions, named by `sqlite_master`.
    private func tablesOpened(by stmt: OpaquePointer) throws -> Set<String> {
        guard let text = sqlite3_sql(stmt) else { return [] }
        var roots: Set<Int64> = []
        try withRawStatement("EXPLAIN " + String(cString: text)) { explain in
            while sqlite3_step(explain) == SQLITE_ROW {
                guard let opcode = sqlite3_column_text(explain, 1), sqlite3_column_int64(explain, 4) == 0 else { continue }
                let name = String(cString: opcode)
                if name == "OpenRead" || name == "ReopenIdx" { roots.insert(sqlite3_column_int64(explain, 3)) }
            }
        }
        guard !roots.isEmpty else { return [] }
        var tables: Set<String> = []
        try withRawStatement("SELECT tbl_name, rootpage FROM main.sqlite_master") { master in
            while sqlite3_step(master) == SQLITE_ROW {
                guard roots.contains(sqlite3_column_int64(master, 1)), let name = sqlite3_column_text(master, 0) else { continue }
                tables.insert(String(cString: name).lowercased())
            }
        }
        if roots.contains(1) { tables.insert("sqlite_master") }
        return tables
    }

    /// A statement compiled and finalized here, outside the cache and the authorizer's reports.
    private func withRawStatement(_ sql: String, _ body: (OpaquePointer) throws -> Void) throws {
        let reporting = compiles.reporting
        compiles.reporting = []
        defer { compiles.reporting = reporting }
        var stmt: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql, -1, &stmt, nil), sql: sql)
        guard let stmt else { return }
        defer { sqlite3_finalize(stmt) }
        try body(stmt)
    }
}
