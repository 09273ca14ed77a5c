// SQLCipherBench: the library's public Swift API vs raw C on libsqlcipher vs plaintext, on the
// seed's workloads. `make bench` (full, release) or `make bench-quick` (tiny sizes, for CI).
// See BENCHMARKS.md.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--child" {
    exit(Child.run(Array(arguments.dropFirst())))
}
if arguments.first == "--commit-writer", arguments.count == 2 {
    exit(CommitWriter.serve(path: arguments[1]))
}
do {
    let driver = Driver(options: try Options(arguments))
    exit(try driver.run() ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("SQLCipherBench: \(error)\n".utf8))
    exit(1)
}
