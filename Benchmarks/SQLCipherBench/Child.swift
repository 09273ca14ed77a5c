import CBaseline
import Foundation

// MARK: - Child

/// The child side: `SQLCipherBench --child <directory> <job arguments…>` runs one job and prints
/// one `RESULT seconds peakRSSKiB checksum` line.
enum Child {
    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count == 7, let job = Job(arguments: Array(arguments.dropFirst())) else {
            FileHandle.standardError.write(Data("usage: --child <dir> <job>\n".utf8))
            return 2
        }
        let fixtures = Fixtures(directory: URL(fileURLWithPath: arguments[0]))
        do {
            let measured =
                job.implementation == .swift
                ? try SwiftWorkloads(job: job, fixtures: fixtures).run()
                : try CWorkloads(job: job, fixtures: fixtures).run()
            let result = JobResult(
                seconds: measured.seconds, peakRSSKiB: Int(cb_peak_rss_kib()), checksum: measured.checksum)
            if let note = measured.note { print("NOTE " + note) }
            print(result.line)
            return 0
        } catch {
            if case .unavailable(let what) = error as? BenchError {
                FileHandle.standardError.write(Data("\(what)\n".utf8))
                return BenchError.unavailableStatus
            }
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return 1
        }
    }

    // MARK: - Spawning

    /// Runs `job` in a fresh process of this executable and returns what it reports; with
    /// `callgrind` (a stripped copy of this executable), runs it under callgrind and reports the
    /// instructions of the measured part in place of the seconds.
    static func spawn(_ job: Job, directory: URL, callgrind: URL? = nil) throws -> JobResult {
        let process = Process()
        let childArguments = ["--child", directory.path] + job.arguments
        if let callgrind {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/valgrind")
            process.arguments = callgrindArguments(callgrind) + childArguments
        } else {
            process.executableURL = executableURL
            process.arguments = childArguments
        }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0,
            let line = text.split(separator: "\n").last(where: { $0.hasPrefix("RESULT") }),
            var result = JobResult(line: line)
        else {
            let reason = message.trimmingCharacters(in: .whitespacesAndNewlines)
            if process.terminationStatus == BenchError.unavailableStatus { throw BenchError.unavailable(reason) }
            throw BenchError.failed(reason.isEmpty ? "status \(process.terminationStatus)" : reason)
        }
        result.note = text.split(separator: "\n").last(where: { $0.hasPrefix("NOTE ") }).map { String($0.dropFirst(5)) }
        if callgrind != nil {
            guard let count = collectedInstructions(message) else { throw BenchError.failed("no callgrind count") }
            result.seconds = count
            result.peakRSSKiB = 0  // valgrind's own memory, not the workload's
        }
        return result
    }

    static let executableURL: URL = {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    }()
}
