import Foundation
import TerminalIO

// cipherdb: the admin command-line tool. `cipherdb --help` lists commands and exit codes.
if let failure = RawArguments.invalidUTF8Failure() {
    Console.warnEscaped("cipherdb: error: \(failure.message)")
    exit(failure.code.rawValue)
}
let status = CipherDB.main(Array(CommandLine.arguments.dropFirst()))
ExitPause.pauseIfAsked(status)
exit(status)
