// A newcomer's first script: top-level code with `await`, the public API only. It compiles only
// if `try await manager.write`/`read`/`transaction` pick the async methods in top-level code.
import Foundation
import SQLCipherManager

guard CommandLine.arguments.count == 2 else {
    print("usage: TopLevelScript FOLDER")
    exit(2)
}
let url = URL(fileURLWithPath: CommandLine.arguments[1]).appendingPathComponent("notes.db")
let manager = DatabaseManager(url: url)
try manager.create(password: "correct horse battery staple")
try await manager.write { db in
    try db.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
    try db.execute("INSERT INTO note(title) VALUES (?)", "Hello")
}
try await manager.transaction { db in try db.execute("INSERT INTO note(title) VALUES (?)", "again") }
struct Note: Decodable { var title: String }
let notes = try await manager.read { db in try db.fetchAll(Note.self, "SELECT title FROM note ORDER BY id") }
print("notes: \(notes.map(\.title).joined(separator: ", "))")
manager.close()
