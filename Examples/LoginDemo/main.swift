import Foundation

// The secure-notes login program: `swift run LoginDemo [--db PATH]` (or `make demo`).
exit(NotesApp.main(arguments: Array(CommandLine.arguments.dropFirst())))
