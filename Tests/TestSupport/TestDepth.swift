import Foundation
import SeededRandom

// MARK: - How deep the explorations go

/// How much of each exploration (kill loops, power-loss states, ledgers, the mutation campaign)
/// a run covers: `SCM_TEST_DEPTH=quick` (the default; `make test`) or `full` (`make test-full`,
/// CI, `make sanitize`).
///
/// A quick run samples within every flow, cell and kind, never dropping one whole, so it can
/// still fail on any of them; a full run covers exactly what the suites define. What a run
/// sampled is chosen with ``seed`` and printed with the line that replays it.
public enum TestDepth: String, Sendable {
    case quick
    case full

    /// `SCM_TEST_DEPTH`, quick when unset; any other value stops the run (a typo must not turn
    /// a CI run quick).
    public static let current: TestDepth = {
        guard let value = ProcessInfo.processInfo.environment["SCM_TEST_DEPTH"], !value.isEmpty else { return .quick }
        guard let depth = TestDepth(rawValue: value) else {
            fatalError("SCM_TEST_DEPTH=\(value): use quick or full")
        }
        return depth
    }()

    /// `true` in a full run.
    public static var isFull: Bool { current == .full }

    /// `SCM_TEST_SEED`, or a fresh random seed: every seeded choice of the run (kill moments,
    /// samples, mutants) derives from it, so a failing run is replayed with the seed it printed.
    public static let seed: UInt64 =
        ProcessInfo.processInfo.environment["SCM_TEST_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)

    /// The environment assignments that replay this run, for failure messages and summaries.
    public static var replay: String { "SCM_TEST_DEPTH=\(current.rawValue) SCM_TEST_SEED=\(seed)" }

    /// `full` in a full run, `quick` (at most `full`) in a quick one.
    public static func count(full: Int, quick: Int) -> Int { isFull ? full : min(quick, full) }

    /// `full` in a full run, `quick` in a quick one.
    public static func choose<Value>(full: Value, quick: Value) -> Value { isFull ? full : quick }

    /// Every item in a full run; in a quick one, `quick` of them chosen with ``seed`` (and
    /// `salt`, so that two samples of the same run differ), in their original order. Prints what
    /// it kept and how to replay it.
    public static func sample<Item>(_ items: [Item], quick: Int, label: String, salt: UInt64 = 0) -> [Item] {
        guard !isFull, quick < items.count else {
            print("\(label): all \(items.count) (\(replay))")
            return items
        }
        var random = SeededGenerator(seed: seed ^ salt)
        let kept = Array(items.indices.shuffled(using: &random).prefix(max(quick, 1))).sorted()
        print("\(label): sampled \(kept.count) of \(items.count) (\(replay) to replay, SCM_TEST_DEPTH=full for all)")
        return kept.map { items[$0] }
    }

    /// Prints one line that says what a seeded exploration runs and how to replay it.
    public static func announce(_ label: String, _ detail: String) {
        print("\(label): \(detail) (\(replay) to replay)")
    }
}
