import Foundation
import SeededRandom

// MARK: - MutationCampaign

/// The deterministic mutation driver: `mutants` damaged copies of the ``Seeds``, each opened
/// once (right password 85 %, wrong 15 %; `quick_check` on open for every fourth) by
/// ``OpenCheck``. The same `seed` gives the same mutants, so a failure is replayed with its seed
/// (`SEED=<n>` for `SQLCipherFuzz`, `SCM_TEST_SEED=<n>` for the test). A hang is stopped by
/// `alarm`: the process dies (SIGALRM) and the run fails.
public struct MutationCampaign {
    public let seed: UInt64
    public let mutants: Int
    /// Seconds one open may take before the alarm ends the process.
    public var hangSeconds: UInt32 = 60

    public init(seed: UInt64, mutants: Int) {
        self.seed = seed
        self.mutants = mutants
    }

    public struct Report: Sendable, CustomStringConvertible {
        public var mutants = 0
        public var outcomes: [String: Int] = [:]
        public var problems: [String] = []
        /// Failed opens that changed a file.
        public var changedFiles = 0

        public var description: String {
            let tally = outcomes.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return "\(mutants) mutants: \(tally); \(changedFiles) failed opens changed files; \(problems.count) problems"
        }
    }

    /// Runs every mutant in a scratch directory below `directory`.
    public func run(in directory: URL) throws -> Report {
        let seeds = try Seeds.all(in: directory)
        let names = seeds.keys.sorted()
        var mutator = Mutator(seed: seed, donors: names.map { seeds[$0]! })
        var choices = SeededGenerator(seed: seed ^ 0x5EED)
        let check = OpenCheck()
        var report = Report()
        for index in 0..<mutants {
            let name = names.randomElement(using: &choices)!
            let (files, mutations) = mutator.mutate(seeds[name]!)
            let wrongPassword = Int.random(in: 0..<100, using: &choices) < 15
            let caseDirectory = directory.appendingPathComponent("mutant-\(index)")
            try FileManager.default.createDirectory(at: caseDirectory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: caseDirectory) }
            try files.write(to: caseDirectory.appendingPathComponent("test.db").path)
            alarm(hangSeconds)
            let result = check.run(
                directory: caseDirectory, password: wrongPassword ? "wrong-password" : Seeds.password,
                checksIntegrity: index % 4 == 0)
            alarm(0)
            report.mutants += 1
            report.outcomes[result.outcome, default: 0] += 1
            if result.changedFiles { report.changedFiles += 1 }
            for problem in result.problems {
                report.problems.append(
                    "mutant \(index) (\(name): \(mutations.joined(separator: ", "))\(wrongPassword ? ", wrong password" : "")): \(problem)")
            }
        }
        return report
    }
}
