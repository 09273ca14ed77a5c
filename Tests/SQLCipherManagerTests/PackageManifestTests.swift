import Foundation
import TestSupport
import Testing

/// What SwiftPM does with Package.swift for a package that depends on this one — without our
/// Makefile, so without its PKG_CONFIG_PATH.
@Suite struct PackageManifestTests {
    /// SwiftPM keeps only these pkg-config flags and prints "warning: prohibited flag(s)" for
    /// any other one (glib's `-pthread`, for instance) on every build of every dependent.
    static func isAllowed(_ flag: String) -> Bool {
        ["-I", "-D", "-F", "-L", "-l"].contains { flag.hasPrefix($0) && flag.count > 2 } || flag == "-framework" || flag == "-w"
    }

    @Test func everyPkgConfigFlagOfTheManifestIsOneSwiftPMAccepts() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let names = manifest.components(separatedBy: "pkgConfig: \"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(names.count >= 3, "\(names)")
        for name in names {
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["pkg-config", "--cflags", "--libs", name]
            var environment = ProcessInfo.processInfo.environment
            environment["PKG_CONFIG_PATH"] = nil
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "pkg-config \(name) failed")
            var words = text.split(whereSeparator: \.isWhitespace).map(String.init)[...]
            while let flag = words.popFirst() {
                if flag == "-framework" { _ = words.popFirst() }
                #expect(Self.isAllowed(flag), "pkg-config \(name) gives \(flag): SwiftPM warns \"prohibited flag(s)\" on every build")
            }
        }
    }
}
