import Foundation

// MARK: - Options

/// Command-line options of the parent: `--quick`, `--runs N`, `--only a,b`, `--dir PATH`.
struct Options {
    var quick = false
    var runs = 5
    var only: Set<String> = []
    var directory: URL?
    /// Count instructions under callgrind instead of timing (repeatable on a busy machine).
    var instructions = false
    /// Build the selected sections' fixtures in `--dir` and stop (for the GRDB side-by-side).
    var fixturesOnly = false

    init(_ arguments: [String]) throws {
        var rest = arguments.map { Substring($0) }[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": quick = true
            case "--runs": runs = try Self.number(rest.popFirst(), for: argument)
            case "--only": only = Set((rest.popFirst() ?? "").split(separator: ",").map(String.init))
            case "--instructions": instructions = true
            case "--fixtures-only": fixturesOnly = true
            case "--dir": directory = rest.popFirst().map { URL(fileURLWithPath: String($0)) }
            default:
                throw BenchError.failed(
                    "unknown option \(argument); use --quick, --runs N, --only a,b, --dir PATH, --instructions, --fixtures-only")
            }
        }
        if (quick || instructions) && !arguments.contains("--runs") { runs = 1 }
    }

    private static func number(_ text: Substring?, for option: Substring) throws -> Int {
        guard let text, let value = Int(text), value > 0 else { throw BenchError.failed("\(option) needs a positive number") }
        return value
    }

    func includes(_ section: String) -> Bool { only.isEmpty || only.contains(section) }
}

// MARK: - Comparison

/// One table row: jobs measured side by side (interleaved) and the ratio of the first two.
struct Comparison {
    var name: String
    var jobs: [Job]
    /// The highest acceptable `jobs[0] ÷ jobs[1]` median ratio, if any.
    var target: Double?
    /// The `seed` section's columns: old and new baselines, GRDB's quoted ratio.
    var seed: SeedColumns? = nil
}

/// A titled table of comparisons and its column labels.
struct Section {
    var key: String
    var title: String
    var labels: [String]
    var comparisons: [Comparison]
}

// MARK: - Plan

/// The workloads: the seed's sizes for a full run, tiny ones for `--quick`.
struct Plan {
    let sizes: [Int]
    let lookupRows: Int
    let lookupCount: Int
    let migrationSizes: [Int]
    let rekeyRows: Int
    /// The key-slot section's database size in MiB (a 1 GiB file in the full run).
    let keySlotMegabytes: Int
    /// The backup section's fixture rows (about 100 MB in the full run: ~135 bytes a row).
    let backupRows: Int

    init(quick: Bool) {
        sizes = quick ? [300] : [10_000, 50_000, 100_000]
        lookupRows = quick ? 300 : 100_000
        lookupCount = quick ? 100 : 10_000
        migrationSizes = sizes
        rekeyRows = quick ? 300 : 100_000
        keySlotMegabytes = quick ? 4 : 1024
        backupRows = quick ? 3000 : 740_000
    }

    static func label(_ rows: Int) -> String { rows >= 1000 && rows % 1000 == 0 ? "\(rows / 1000)k" : "\(rows)" }
}
