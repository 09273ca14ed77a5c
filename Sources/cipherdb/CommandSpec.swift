// MARK: - CommandSpec

/// One subcommand: its arguments, the options it accepts, its one-line summary and its code.
struct CommandSpec: Sendable {
    let name: String
    let arguments: [String]
    let options: [Option]
    let summary: String
    let run: @Sendable (Invocation) throws -> Void

    /// The options that locate and unlock an existing database.
    static let unlocking: [Option] = [.passwordEnv, .passwordFile, .keyFile, .kdfIter, .pageSize, .legacyKDF, .noHMAC, .compatibility]

    var usageLine: String {
        (["cipherdb", name] + arguments
            + options.map { option in
                option.valueName.map { "[\(option.rawValue) \($0)]" } ?? "[\(option.rawValue)]"
            }).joined(separator: " ")
    }

    static let all: [CommandSpec] =
        [
            CommandSpec(
                name: "create", arguments: ["DB"], options: unlocking,
                summary: "create a new encrypted database (a terminal asks for the password twice)",
                run: CreateCommand.run),
            CommandSpec(
                name: "exec", arguments: ["DB", "[SQL]"], options: unlocking + [.file, .json],
                summary: "run SQL (the argument, - for stdin, or --file PATH) and print the rows as TSV or JSON",
                run: ExecCommand.run),
            CommandSpec(
                name: "info", arguments: ["DB"], options: unlocking + [.unlock],
                summary:
                    "what the file is and its size; with a password also cipher settings, schema version, tables (or which settings open it)",
                run: InfoCommand.run),
            CommandSpec(
                name: "verify", arguments: ["DB"], options: unlocking,
                summary: "check the password, then every page (PRAGMA integrity_check)",
                run: VerifyCommand.run),
        ] + MigrationCommands.specs + [PlaintextHeaderCommand.spec] + KeyCommands.specs

    static func named(_ name: String) -> CommandSpec? {
        all.first { $0.name == name }
    }
}
