import Foundation
import FuzzHarness

#if canImport(Glibc)
    import Glibc
#endif

// The fuzz target for opening hostile files. Built by `make fuzz` with
// `-sanitize=fuzzer,address`, it hands LLVMFuzzerTestOneInput to libFuzzer's
// LLVMFuzzerRunDriver: SwiftPM renames this file's entry point to SQLCipherFuzz_main, so
// libFuzzer's own main never runs and this program starts the driver itself. The driver is
// looked up at run time (dlsym), so the ordinary `swift build` links this target without
// libFuzzer; built that way it runs the deterministic mutation campaign instead:
//
//   SQLCipherFuzz [libFuzzer arguments: corpus directory, -max_total_time=N, -runs=N…]
//   SEED=<n> MUTANTS=<n> SQLCipherFuzz        (no libFuzzer linked)
//
// An input decodes as FuzzInput (a main file and one -wal or -journal). Any problem OpenCheck
// finds (an untyped error, a file changed by a failed open, a slow open) stops the program
// with the problem, so libFuzzer saves the input as a crash. An empty corpus directory is filled
// with the encoded seeds first.

/// The directory each input is written to (libFuzzer calls the target from one thread only).
let caseDirectory = URL(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("scm-fuzz-\(getpid())")

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    try? FileManager.default.removeItem(at: caseDirectory)
    try? FileManager.default.createDirectory(at: caseDirectory, withIntermediateDirectories: true)
    do { try input.files.write(to: caseDirectory.appendingPathComponent("test.db").path) } catch { return 0 }
    let result = OpenCheck().run(
        directory: caseDirectory, password: input.wrongPassword ? "wrong-password" : Seeds.password,
        checksIntegrity: input.checksIntegrity)
    if let problem = result.problems.first { fatalError("SQLCipherFuzz: \(problem)") }
    return 0
}

typealias FuzzTarget = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
typealias RunDriver =
    @convention(c) (
        UnsafeMutablePointer<Int32>, UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>, FuzzTarget
    ) -> Int32

/// Writes the encoded seeds into the first corpus directory named on the command line, if empty.
func fillCorpus() throws {
    guard let directory = CommandLine.arguments.dropFirst().first(where: { !$0.hasPrefix("-") }) else { return }
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    guard try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty else { return }
    for (name, files) in try Seeds.all(in: caseDirectory) {
        for wrong in [false, true] {
            let bytes = FuzzInput.encode(files, wrongPassword: wrong)
            try Data(bytes).write(to: URL(fileURLWithPath: directory).appendingPathComponent("\(name)\(wrong ? "-wrong" : "")"))
        }
    }
}

let environment = ProcessInfo.processInfo.environment
if let driver = dlsym(dlopen(nil, RTLD_NOW), "LLVMFuzzerRunDriver") {
    try fillCorpus()
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(unsafeBitCast(driver, to: RunDriver.self)(&argc, &argv, testOneInput))
} else {
    let seed = environment["SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
    let mutants = environment["MUTANTS"].flatMap(Int.init) ?? 20_000
    print("SQLCipherFuzz (no libFuzzer linked): mutation campaign, SEED=\(seed), \(mutants) mutants")
    try FileManager.default.createDirectory(at: caseDirectory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: caseDirectory) }
    let report = try MutationCampaign(seed: seed, mutants: mutants).run(in: caseDirectory)
    print(report)
    report.problems.prefix(20).forEach { print($0) }
    exit(report.problems.isEmpty ? 0 : 1)
}
