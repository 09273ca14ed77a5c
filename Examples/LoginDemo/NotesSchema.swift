import SQLCipherManager

// MARK: - NotesSchema

/// The app's tables, as numbered migration steps. The manager runs them after every create
/// and open (the original's "hand off to the schema manager"), so an older file is upgraded.
enum NotesSchema {
    static var migrator: VersionedSchemaMigrator {
        var migrator = VersionedSchemaMigrator()
        migrator.register(version: 1) { db in
            try db.execute(
                """
                CREATE TABLE note(
                    id INTEGER PRIMARY KEY,
                    title TEXT NOT NULL,
                    body TEXT NOT NULL DEFAULT '',
                    created_at TEXT NOT NULL DEFAULT (datetime('now')))
                """)
        }
        migrator.register(version: 2) { db in
            try db.execute("CREATE INDEX note_title ON note(title)")
        }
        return migrator
    }
}
