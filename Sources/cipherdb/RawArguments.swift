import Foundation

// MARK: - RawArguments

/// The command line as bytes. Swift decodes `argv` with U+FFFD for bytes that are not UTF-8,
/// so `create $'\xff\xfe.db'` would make a file named `\u{FFFD}\u{FFFD}.db` — another name than
/// the one typed. The library takes paths as `String`/`URL` (UTF-8), so such an argument is
/// refused with a usage error instead of silently becoming another file.
enum RawArguments {
    /// The usage error for the first argument that is not valid UTF-8, or `nil`.
    static func invalidUTF8Failure() -> Failure? {
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
            if String(validating: bytes, as: UTF8.self) == nil {
                return Failure.usage(
                    "Argument \(index) is not valid UTF-8 (a file name in another encoding?), so cipherdb "
                        + "would use another name than the one given. Rename the file to UTF-8 (for example with `convmv`).")
            }
        }
        return nil
    }
}
