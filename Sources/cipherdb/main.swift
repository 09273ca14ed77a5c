import Foundation

// cipherdb: the admin command-line tool. `cipherdb --help` lists commands and exit codes.
exit(CipherDB.main(Array(CommandLine.arguments.dropFirst())))
