import Foundation

// MARK: - Lines as bytes

extension Console {
    /// The next line of stdin as the bytes typed, without its `\n` or `\r\n`, or `nil` at end of
    /// input. Nothing is decoded, so a caller can refuse bytes that are not UTF-8 instead of
    /// having them replaced by U+FFFD. Read one byte at a time with `read(2)`, so nothing past
    /// the line is consumed (a later read of stdin, by a pipe or `FileHandle`, gets the rest).
    public static func readLineBytes(maximumLength: Int = 1 << 20) -> [UInt8]? {
        var line: [UInt8] = []
        while line.count < maximumLength {
            guard let byte = POSIXTerminal.readByte(POSIXTerminal.standardInput) else {
                if line.isEmpty { return nil }
                break
            }
            if byte == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        return stripLineEnding(line)
    }

    /// Like ``readSecretLine(prompt:newlineTo:)``, as bytes: without echo on a terminal, the
    /// prompt written once echo is off.
    public static func readSecretLineBytes(prompt: String? = nil, newlineTo output: FileHandle = .standardOutput) -> [UInt8]? {
        guard stdinIsTerminal else {
            if let prompt { output.write(Data(prompt.utf8)) }
            return readLineBytes()
        }
        let line = EchoControl.withEchoDisabled {
            if let prompt { output.write(Data(prompt.utf8)) }
            return readLineBytes()
        }
        output.write(Data("\n".utf8))
        return line
    }

    /// `bytes` without one trailing `\n` or `\r\n`.
    public static func stripLineEnding(_ bytes: [UInt8]) -> [UInt8] {
        var line = bytes[...]
        if line.last == UInt8(ascii: "\n") { line = line.dropLast() }
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return Array(line)
    }
}
