import Foundation
import Testing
@testable import SQLCipherManager

/// The deprecated spellings kept for one release still do what their new names do. Each check is
/// a `@available(*, deprecated)` witness of ``AliasCheck``, called through the protocol: the
/// aliases are compiled and run, and the build stays free of deprecation warnings.
protocol AliasCheck {
    func run(in dir: TemporaryDirectory) throws
}

@Suite struct DeprecatedAliasesTests {
    @Test func folderSpellings() throws {
        try (FolderAliases() as any AliasCheck).run(in: TemporaryDirectory())
    }
}

struct FolderAliases: AliasCheck {
    @available(*, deprecated)
    func run(in dir: TemporaryDirectory) throws {
        #expect(DatabaseManagerError.isDirectory(path: "/x").caseName == "isFolder")
        #expect(DatabaseManagerError.parentDirectoryMissing(path: "/x").caseName == "parentFolderMissing")
        #expect(DatabaseFileInfo.Kind.directory == .folder)
        let incomplete: SchemaMigratorIncomplete = MigrationIncompleteError(reached: 1, target: 2)
        #expect(incomplete.target == 2)
        switch DatabaseManager.inspectFile(at: dir.url).kind {
        case .directory: break
        default: Issue.record("a folder is not .directory")
        }
    }
}
