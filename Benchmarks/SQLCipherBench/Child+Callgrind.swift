import Foundation

// MARK: - Instruction counts

extension Child {
    /// A copy of this executable without debug sections (valgrind 3.19 cannot read the DWARF 5
    /// that Swift emits), for `--instructions`.
    static func strippedCopy(in directory: URL) throws -> URL {
        let copy = directory.appendingPathComponent("SQLCipherBench-stripped")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: executableURL, to: copy)
        try run("/usr/bin/strip", ["--strip-debug", copy.path])
        return copy
    }

    /// The arguments that run `executable` under callgrind, counting only between the
    /// workload's `cb_measure_toggle()` calls.
    static func callgrindArguments(_ executable: URL) -> [String] {
        ["--tool=callgrind", "--collect-atstart=no", "--callgrind-out-file=/dev/null", executable.path]
    }

    /// The count from callgrind's `Collected : N` line.
    static func collectedInstructions(_ stderr: String) -> Double? {
        guard let line = stderr.split(separator: "\n").last(where: { $0.contains("Collected :") }),
            let number = line.split(separator: " ").last.flatMap({ Double($0) })
        else { return nil }
        return number
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError.failed("\(tool) failed") }
    }
}
