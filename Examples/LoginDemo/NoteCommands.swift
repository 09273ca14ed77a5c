import Foundation
import SQLCipherManager
import TerminalIO

// MARK: - Note commands

extension NotesShell {
    func add(_ title: String) throws {
        let title = title.trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else { return Console.say("Usage: add TITLE (the body follows on the next lines).") }
        var lines: [String] = []
        Console.say("Body (end with an empty line):")
        while let line = Ask.line("  | "), !line.isEmpty { lines.append(line) }
        let id = try notes.add(title: title, body: lines.joined(separator: "\n"))
        Console.say("Added note #\(id).")
    }

    func list() throws {
        let all = try notes.all()
        if all.isEmpty { return Console.say("No notes yet. Add one with: add TITLE") }
        for note in all { Console.sayEscaped(Self.summary(note)) }
    }

    func show(_ argument: String) throws {
        guard let id = Self.noteID(argument) else { return }
        guard let note = try notes.note(id: id) else { return Console.say("No note #\(id). Type 'list' to see them.") }
        Console.sayEscaped("#\(note.id) \(note.title)  (\(note.createdAt))")
        // Line by line: the body's own line breaks stay; nothing in a line can move the cursor.
        if !note.body.isEmpty {
            note.body.split(separator: "\n", omittingEmptySubsequences: false).forEach { Console.sayEscaped(String($0)) }
        }
    }

    func search(_ text: String) throws {
        guard !text.isEmpty else { return Console.say("Usage: search TEXT") }
        let found = try notes.search(text)
        if found.isEmpty { return Console.sayEscaped("No note contains '\(text)'.") }
        for note in found { Console.sayEscaped(Self.summary(note)) }
    }

    func delete(_ argument: String) throws {
        guard let id = Self.noteID(argument) else { return }
        Console.say(try notes.delete(id: id) ? "Deleted note #\(id)." : "No note #\(id). Type 'list' to see them.")
    }

    static func summary(_ note: Note) -> String {
        "#\(note.id)  \(note.title)  (\(note.createdAt))"
    }

    /// The note id in `argument`, or `nil` after saying how to give one.
    static func noteID(_ argument: String) -> Int64? {
        guard let id = Int64(argument.trimmingCharacters(in: .whitespaces)) else {
            Console.say("Give a note number, for example: show 1 (type 'list' to see them).")
            return nil
        }
        return id
    }
}
