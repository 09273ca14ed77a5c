import Foundation
import SQLCipherManager
import Testing

/// The package's version: one `major.minor.patch` string, below 1.0 until the API is frozen, and
/// the one CHANGELOG.md's newest version heading names.
@Suite struct PackageVersionTests {
    @Test func theVersionIsSemanticAndBelowOne() throws {
        let parts = DatabaseTools.packageVersion.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3, "\(DatabaseTools.packageVersion)")
        #expect(parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        #expect(parts.first == "0")
    }

    @Test func theChangelogsNewestVersionIsThePackagesVersion() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let versions = changelog.split(separator: "\n").filter { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        let newest = try #require(versions.first, "CHANGELOG.md has no version heading")
        #expect(newest.hasPrefix("## [\(DatabaseTools.packageVersion)]"), "\(newest)")
    }
}
