import Foundation
import TerminalIO

// cipherdb: the admin command-line tool. `cipherdb --help` lists commands and exit codes.
if let failure = RawArguments.invalidUTF8Failure() {
    Console.warn("cipherdb: error: \(failure.message)")
    exit(failure.code.rawValue)
}
exit(CipherDB.main(Array(CommandLine.arguments.dropFirst())))
