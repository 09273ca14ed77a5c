// MARK: - Help

/// `cipherdb --help`: commands, options, password sources and exit codes.
enum Help {
    static var text: String {
        var lines = [
            "cipherdb — administer SQLCipher-encrypted SQLite databases (SQLCipherManager).",
            "",
            "Usage: cipherdb [OPTIONS] COMMAND ARGUMENTS [OPTIONS]   (options before or after the command)",
            "       cipherdb --version   (this tool's version and the linked SQLCipher and SQLite)",
            "",
            "Commands:",
        ]
        for spec in CommandSpec.all {
            lines.append("  " + pad(spec.name + " " + spec.arguments.joined(separator: " "), 26) + spec.summary)
        }
        lines += ["", "Options (each command lists the ones it takes with `cipherdb COMMAND --help`):"]
        for option in Option.allCases {
            lines.append("  " + pad(option.rawValue + (option.valueName.map { " " + $0 } ?? ""), 26) + option.help)
        }
        lines += SQLCipherLogOption.help
        lines += [
            "",
            "Passwords are read from --password-env NAME or --password-file PATH; otherwise from stdin:",
            "a no-echo prompt on a terminal, else its first lines (rekey: the old password, then the new).",
            "They are never accepted as arguments (--password is refused): `ps` would show them.",
            "exec reads its SQL from the argument, from stdin for `-` (then the password comes from",
            "--password-env, --password-file or the terminal), or from --file PATH. --json prints one",
            "array of row objects per statement that returns columns; a BLOB is {\"base64\":\"…\"}, in TSV x'hex'.",
            "Text from data (values, names, labels, paths, SQL in errors) is printed escaped (\\x1b, \\u{202e},",
            "\\xff for bytes that are not UTF-8) so it cannot act on the terminal; --json gives the exact values.",
            "When a password does not open a database, cipherdb tries the known cipher settings",
            "(the formats of SQLCipher 1 up to the linked version, 1024-16384-byte pages, what `settings`",
            "recorded), read-only, and says which options open it.",
            "Long operations draw a progress line on stderr when it is a terminal.",
            "",
            "Exit codes:",
        ]
        for code in ExitCode.allCases {
            lines.append("  \(code.rawValue)  \(code.meaning)")
        }
        lines.append("  130, 143  stopped by SIGINT or SIGTERM before the change was made: nothing was changed")
        return lines.joined(separator: "\n")
    }

    static func text(for spec: CommandSpec) -> String {
        var lines = ["Usage: \(spec.usageLine)", "", spec.summary, ""]
        for option in spec.options {
            lines.append("  " + pad(option.rawValue + (option.valueName.map { " " + $0 } ?? ""), 26) + option.help)
        }
        lines += [
            "",
            "Exit codes: " + ExitCode.allCases.map { "\($0.rawValue)" }.joined(separator: ", ")
                + " (see `cipherdb --help`).",
        ]
        return lines.joined(separator: "\n")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + "  " : text + String(repeating: " ", count: width - text.count)
    }
}
