import Foundation

// MARK: - The seed section's table

extension Report {
    /// Prints the seed section: ours, raw C doing the seed's work, the ratio, the goal, GRDB's
    /// quoted ratio, the verdict, then the older pair and its ratio. Returns `false` when the
    /// checksums of a row disagree.
    static func seedTable(_ section: Section, samples: [Job: Samples], instructions: Bool) -> Bool {
        let unit = instructions ? "M instr" : "ms"
        let measure = instructions ? "instr" : "wall"
        let head = [
            "workload", "ours \(unit)", "raw C, seed's work \(unit)", "ratio", "goal",
            "GRDB 7.8 \(measure), quoted", "verdict",
            "old: ours \(unit)", "old raw C \(unit)", "old ratio", "peak RSS MiB (ours / C)",
        ]
        print("| " + head.joined(separator: " | ") + " |")
        print("|" + head.map { _ in "---" }.joined(separator: "|") + "|")
        var consistent = true
        for comparison in section.comparisons {
            guard let seed = comparison.seed else { continue }
            let sample = { (job: Job) in samples[job] ?? Samples() }
            var cells = [
                comparison.name, sample(seed.ours).formatted(instructions: instructions),
                sample(seed.c).formatted(instructions: instructions), ratioText(sample(seed.ours), sample(seed.c)),
                comparison.target.map { "≤ \(Samples.fixed($0, 2))" } ?? "—",
                grdbText(seed, samples, instructions: instructions),
                verdict(comparison, seed, samples, instructions: instructions),
                sample(seed.oldOurs).formatted(instructions: instructions),
                sample(seed.oldC).formatted(instructions: instructions), ratioText(sample(seed.oldOurs), sample(seed.oldC)),
                rssText(seed, sample),
            ]
            let checksums = Set(seed.jobs.flatMap { sample($0).checksums })
            if checksums.count > 1 {
                cells[0] += " **CHECKSUM MISMATCH**"
                consistent = false
            }
            print("| " + cells.joined(separator: " | ") + " |")
        }
        failures(section, samples: samples)
        return consistent
    }

    /// Peak RSS, ours / C, and the memory reference's (the cursor's) when the row has one.
    private static func rssText(_ seed: SeedColumns, _ sample: (Job) -> Samples) -> String {
        let text = "\(Samples.fixed(sample(seed.ours).peakRSSMiB, 1)) / \(Samples.fixed(sample(seed.c).peakRSSMiB, 1))"
        guard let reference = seed.memoryReference else { return text }
        return text + "; cursor \(Samples.fixed(sample(reference).peakRSSMiB, 1))"
    }

    /// `a ÷ b` of the medians, when both ran.
    private static func ratio(_ a: Samples, _ b: Samples) -> Double? {
        guard !a.results.isEmpty, !b.results.isEmpty, b.median > 0 else { return nil }
        return a.median / b.median
    }

    private static func ratioText(_ a: Samples, _ b: Samples) -> String {
        ratio(a, b).map { Samples.fixed($0, 3) } ?? "—"
    }

    /// GRDB's quoted ratio for this measure, and ours on the same denominator when it differs.
    private static func grdbText(_ seed: SeedColumns, _ samples: [Job: Samples], instructions: Bool) -> String {
        guard let grdb = seed.grdb else { return "—" }
        var text = "\(grdb.api): \(Samples.fixed(instructions ? grdb.instructions : grdb.wall, 2))"
        if let baseline = seed.grdbBaseline, let ours = ratio(samples[seed.ours] ?? Samples(), samples[baseline] ?? Samples()) {
            text += "; ours vs C in autocommit: \(Samples.fixed(ours, 3))"
        }
        return text
    }

    /// "met" when the ratio is within the goal, at or below GRDB's quoted ratio (on GRDB's
    /// denominator) and, for `fetchAll`, its peak RSS within the goal of the reference's.
    private static func verdict(_ comparison: Comparison, _ seed: SeedColumns, _ samples: [Job: Samples], instructions: Bool) -> String {
        let sample = { (job: Job) in samples[job] ?? Samples() }
        guard let ours = ratio(sample(seed.ours), sample(seed.c)) else { return "not measured" }
        var misses: [String] = []
        if let goal = comparison.target, ours > goal { misses.append("goal") }
        if let grdb = seed.grdb, let mine = ratio(sample(seed.ours), sample(seed.grdbBaseline ?? seed.c)),
            mine > (instructions ? grdb.instructions : grdb.wall)
        {
            misses.append("above GRDB")
        }
        if let reference = seed.memoryReference, let goal = seed.memoryGoal, !instructions {
            let rss = sample(seed.ours).peakRSSMiB / Swift.max(sample(reference).peakRSSMiB, 0.001)
            if rss > goal { misses.append("memory \(Samples.fixed(rss, 2))×") }
        }
        if comparison.target == nil && seed.grdb == nil { return "— (the user's own work)" }
        if comparison.target == nil { return misses.isEmpty ? "no goal; ≤ GRDB" : "no goal; above GRDB" }
        return misses.isEmpty ? "met" : "MISSED: \(misses.joined(separator: ", "))"
    }
}
