import SQLCipherManager

// MARK: - Notes

/// One note.
struct Note {
    let id: Int64
    let title: String
    let body: String
    let createdAt: String

    init(_ row: Row) {
        id = row.value("id") ?? 0
        title = row.value("title") ?? ""
        body = row.value("body") ?? ""
        createdAt = row.value("created_at") ?? ""
    }
}

/// The notes table, through the manager's public query API (bound arguments only).
struct Notes {
    let manager: DatabaseManager

    func add(title: String, body: String) throws -> Int64 {
        try manager.writeSync { db in
            try db.execute("INSERT INTO note(title, body) VALUES (?, ?)", title, body)
            return db.lastInsertRowID
        }
    }

    func all() throws -> [Note] {
        try manager.readSync { db in try db.fetchAll("SELECT id, title, body, created_at FROM note ORDER BY id") }.map(Note.init)
    }

    func note(id: Int64) throws -> Note? {
        try manager.readSync { db in try db.fetchOne("SELECT id, title, body, created_at FROM note WHERE id = ?", id) }.map(Note.init)
    }

    /// Notes whose title or body contains `text` (case-insensitive for ASCII).
    func search(_ text: String) throws -> [Note] {
        let pattern = "%" + Self.escapeLike(text) + "%"
        let rows = try manager.readSync { db in
            try db.fetchAll(
                """
                SELECT id, title, body, created_at FROM note
                WHERE title LIKE ?1 ESCAPE '\\' OR body LIKE ?1 ESCAPE '\\' ORDER BY id
                """, pattern)
        }
        return rows.map(Note.init)
    }

    /// Deletes a note; `false` when there was none with this id.
    func delete(id: Int64) throws -> Bool {
        try manager.writeSync { db in
            try db.execute("DELETE FROM note WHERE id = ?", id)
            return db.changes > 0
        }
    }

    func count() throws -> Int {
        try manager.readSync { db in try db.scalar(Int.self, "SELECT count(*) FROM note") } ?? 0
    }

    /// Escapes LIKE's wildcards so the user's text matches literally.
    static func escapeLike(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
