import Foundation
import FuzzHarness
import TestSupport
import Testing

/// Mutated databases (encrypted, plaintext, WAL pairs, hot journal pairs; byte flips,
/// truncations, duplicated, zeroed and spliced pages, foreign, garbage, dropped and cut
/// sidecars) are opened — 2,000 in a full run, 600 in a quick one (``TestDepth``), `MUTANTS=<n>`
/// for another count; none may crash, hang, throw an untyped error or leave a file changed by a
/// failed open. Replay with the `SCM_TEST_SEED` printed.
@Suite("Mutation campaign: hostile files at open", .ownThread)
struct MutationCampaignTests {
    static let mutants = ProcessInfo.processInfo.environment["MUTANTS"].flatMap(Int.init) ?? TestDepth.count(full: 2_000, quick: 600)

    @Test("mutants: no crash, hang, untyped error or file changed by a failed open")
    func campaign() throws {
        let seed = FaultInjection.seed
        TestDepth.announce("MutationCampaign", "\(Self.mutants) mutants")
        let dir = TemporaryDirectory()
        let report = try MutationCampaign(seed: seed, mutants: Self.mutants).run(in: dir.url)
        print("MutationCampaign: \(report)")
        #expect(report.mutants >= Self.mutants)
        #expect(report.problems.isEmpty, "SCM_TEST_SEED=\(seed): \(report.problems.prefix(10).joined(separator: "\n"))")
        // The campaign reaches the paths it is for: refusals, wrong passwords, and opens.
        for outcome in ["opened", "incorrectPasswordOrSettings", "corrupt", "foreignSidecar", "plaintextDatabase"] {
            #expect((report.outcomes[outcome] ?? 0) > 0, "no mutant ended \(outcome): \(report)")
        }
    }

    @Test("a FuzzInput round-trips a file set")
    func fuzzInputRoundTrip() {
        let files = FileSet(["": Data([1, 2, 3, 4]), "-journal": Data([9, 8])])
        let decoded = FuzzInput(FuzzInput.encode(files, wrongPassword: true))
        #expect(decoded.files.files == files.files)
        #expect(decoded.wrongPassword && !decoded.checksIntegrity)
    }
}
