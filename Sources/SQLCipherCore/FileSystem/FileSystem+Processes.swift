import Foundation

// MARK: - Other processes that have a file open

/// Another process that has a database file open: its id and, where the system says, its name.
package struct OpenerProcess: Equatable, Sendable {
    package let processID: Int
    /// `/proc/<pid>/comm` (the program's name, at most 15 characters), `nil` when unreadable.
    package let name: String?
}

extension FileSystem {
    /// The other processes that have one of `files` (by device and inode) open, found through
    /// `/proc/<pid>/fd` on Linux: what SQLite's locks cannot tell, since a connection between
    /// transactions in rollback-journal mode holds no lock at all. Only processes this one may
    /// inspect are seen (the same user's, or every one as root); on systems without `/proc`
    /// (macOS) the answer is always empty, and only the file locks show another program.
    package static func otherProcesses(withOpen files: [FileIdentity]) -> [OpenerProcess] {
        let wanted = Set(files)
        guard !wanted.isEmpty, let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        let me = Int(POSIX.processID)
        var found: [OpenerProcess] = []
        for entry in entries {
            guard let pid = Int(entry), pid != me else { continue }
            guard holds(pid, wanted), !isChildBeingStarted(pid, holding: wanted) else { continue }
            // Named only while it still has the file open: one that exited meanwhile is no opener.
            let name = processName(pid)
            if holds(pid, wanted) { found.append(OpenerProcess(processID: pid, name: name)) }
        }
        return found.sorted { $0.processID < $1.processID }
    }

    /// The other processes that have one of the files at `paths` open: as
    /// ``otherProcesses(withOpen:)`` for their identities, looked up again when a file at one
    /// of the paths changed during the search (removed, and its inode number given to another
    /// file that an unrelated process has open).
    package static func otherProcesses(withOpenAt paths: [String]) -> [OpenerProcess] {
        var files = paths.compactMap(identity(of:))
        for _ in 0..<3 {
            let found = otherProcesses(withOpen: files)
            let now = paths.compactMap(identity(of:))
            if found.isEmpty || now == files { return found }
            files = now
        }
        return otherProcesses(withOpen: files)
    }

    /// `true` for a process between its `fork` and its `exec` (a `Process` or `posix_spawn`
    /// being started, by this process or another): it holds a copy of every descriptor of its
    /// parent, the close-on-exec ones of SQLite included, and still runs its parent's program.
    /// Waits up to a second for its `exec`; afterwards it counts only if it still has one of
    /// `files` open (a descriptor it inherited without close-on-exec), and a child forked
    /// without `exec` that keeps a file open past the second counts too.
    private static func isChildBeingStarted(_ pid: Int, holding files: Set<FileIdentity>) -> Bool {
        // A process that is gone (its /proc entry unreadable) holds nothing: not an opener.
        guard let parent = parentProcessID(pid), let program = identity(of: "/proc/\(parent)/exe") else {
            return !holds(pid, files)
        }
        let deadline = Date(timeIntervalSinceNow: 1)
        while identity(of: "/proc/\(pid)/exe") == program {
            if !holds(pid, files) { return true }
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.001)
        }
        return !holds(pid, files)
    }

    /// `true` while process `pid` has one of `files` open.
    private static func holds(_ pid: Int, _ files: Set<FileIdentity>) -> Bool {
        descriptorCount(in: "/proc/\(pid)/fd", of: files) > 0
    }

    /// The parent's process id from `/proc/<pid>/stat` (the field after the state, which follows
    /// the parenthesized program name), `nil` when unreadable.
    static func parentProcessID(_ pid: Int) -> Int? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int(fields[1]) : nil
    }

    /// `true` where the system lists each process's open files (`/proc/<pid>/fd`: Linux).
    package static var canListOpenFiles: Bool { FileManager.default.fileExists(atPath: "/proc/self/fd") }

    /// How many descriptors of this process are open on `file` (`/proc/self/fd`; `nil` without
    /// `/proc`): more than SQLite's own means another connection of this process has it open.
    package static func descriptorsOfThisProcess(on file: FileIdentity) -> Int? {
        guard canListOpenFiles else { return nil }
        return descriptorCount(in: "/proc/self/fd", of: [file])
    }

    /// The descriptors listed in a `/proc/<pid>/fd` directory that are open on one of `files`:
    /// `stat` through a descriptor's link reaches the open file, even once it is unlinked.
    private static func descriptorCount(in directory: String, of files: Set<FileIdentity>) -> Int {
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
        return descriptors.filter { identity(of: directory + "/" + $0).map(files.contains) ?? false }.count
    }

    /// `/proc/<pid>/comm` without its newline, `nil` when there is none.
    static func processName(_ pid: Int) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/comm") else { return nil }
        let name = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty ? nil : name
    }
}
