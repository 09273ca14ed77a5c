import Foundation
import SQLCipherManager

// MARK: - Report

/// Prints Markdown tables (ready to paste into BENCHMARKS.md).
enum Report {
    static func header(options: Options, directory: URL) {
        let version = DatabaseTools.linkedSQLCipherVersion.map { "\($0)" } ?? "unknown"
        print("# SQLCipherBench\(options.quick ? " (quick mode: tiny sizes, checks that it runs)" : "")")
        print("")
        print("- date: \(Date()); CPUs: \(ProcessInfo.processInfo.activeProcessorCount); load at start: \(loadAverage)")
        let measure = options.instructions ? "instructions of the measured part, callgrind" : "milliseconds"
        print(
            "- SQLCipher \(version) (\(CipherCheck.loadedLibrary)); runs per job: \(options.runs) (median [min–max], \(measure); each job in its own process)"
        )
        print("- files in \(directory.path)")
    }

    static func footer() {
        print("")
        print("- load at end: \(loadAverage)")
    }

    /// The 1, 5 and 15-minute load averages.
    static var loadAverage: String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    // MARK: - Tables

    /// Prints a section; returns `false` when the implementations' checksums disagree.
    static func table(_ section: Section, samples: [Job: Samples], instructions: Bool) -> Bool {
        print("\n## \(section.title)\n")
        if section.comparisons.contains(where: { $0.seed != nil }) {
            return seedTable(section, samples: samples, instructions: instructions)
        }
        let third = section.labels.count > 2 ? section.labels[2] : nil
        let unit = instructions ? "M instr" : "ms"
        var head = ["workload", "\(section.labels[0]) \(unit)", "\(section.labels[1]) \(unit)", "ratio", "target"]
        if let third { head += ["\(third) \(unit)", "\(section.labels[1]) ÷ \(third)"] }
        head.append("peak RSS MiB (\(section.labels.joined(separator: " / ")))")
        print("| " + head.joined(separator: " | ") + " |")
        print("|" + head.map { _ in "---" }.joined(separator: "|") + "|")
        var consistent = true
        for comparison in section.comparisons {
            let rows = comparison.jobs.map { samples[$0] ?? Samples() }
            let (cells, ok) = cells(comparison, rows, hasThird: third != nil, instructions: instructions)
            consistent = consistent && ok
            print("| " + cells.joined(separator: " | ") + " |")
        }
        notes(section, samples: samples)
        failures(section, samples: samples)
        return consistent
    }

    /// Prints what the first job of each comparison noted, run by run.
    static func notes(_ section: Section, samples: [Job: Samples]) {
        for comparison in section.comparisons {
            let notes = (samples[comparison.jobs[0]]?.results ?? []).compactMap(\.note)
            guard let first = notes.first else { continue }
            let text = notes.count > 1 && Set(notes).count == 1 ? "\(first) (every run)" : notes.joined(separator: "; ")
            print("\n- \(comparison.name): " + text)
        }
    }

    /// Lists the jobs of `section` that failed (and prints the real failures on stderr too).
    static func failures(_ section: Section, samples: [Job: Samples]) {
        for (job, sample) in samples.sorted(by: { $0.key.arguments.joined() < $1.key.arguments.joined() })
        where sample.failure != nil && section.comparisons.contains(where: { $0.jobs.contains(job) }) {
            let line = "- `\(job.arguments.joined(separator: " "))`: \(sample.failure ?? "")"
            print("\n" + line)
            if !sample.isUnavailable { FileHandle.standardError.write(Data((line + "\n").utf8)) }
        }
    }

    private static func cells(
        _ comparison: Comparison, _ rows: [Samples], hasThird: Bool, instructions: Bool
    ) -> ([String], Bool) {
        let ratio = rows[1].median > 0 ? rows[0].median / rows[1].median : 0
        let measured = !rows[0].results.isEmpty && !rows[1].results.isEmpty
        var verdict = "—"
        if let target = comparison.target {
            verdict = "≤ \(Samples.fixed(target, 2)) " + (measured ? (ratio <= target ? "met" : "MISSED") : "not measured")
        }
        var cells = [
            comparison.name, rows[0].formatted(instructions: instructions), rows[1].formatted(instructions: instructions),
            measured ? Samples.fixed(ratio, 3) : "—", verdict,
        ]
        if hasThird, rows.count > 2 {
            let overhead = rows[2].median > 0 ? rows[1].median / rows[2].median : 0
            cells += [rows[2].formatted(instructions: instructions), Samples.fixed(overhead, 3)]
        } else if hasThird {
            cells += ["—", "—"]
        }
        cells.append(rows.map { Samples.fixed($0.peakRSSMiB, 1) }.joined(separator: " / "))
        let checksums = Set(rows.flatMap(\.checksums))
        let ok = checksums.count <= 1
        if !ok { cells[0] += " **CHECKSUM MISMATCH**" }
        return (cells, ok)
    }
}
