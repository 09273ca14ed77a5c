import Foundation
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

// MARK: - Running one bad input

extension BadInput {
    /// Errors about the input rather than a file, whose message has no path.
    static let pathless: Set = [
        "invalidPassword", "invalidKeyLength", "unsupportedOption", "migrationFailed", "notOpen", "invalidOption",
    ]

    /// Sets the scene, runs the flow and checks it failed as expected: the typed error, a
    /// message that names the file and says what to do and holds no password, every file in the
    /// watched directories byte-identical, no `.scm-*` leftovers, and (for failed opens) no manager open.
    func run() throws {
        try skipUnlessSupported()
        let scene = Scene()
        try arrange(scene)
        let before = scene.watchedDirectories.map(FileSnapshot.init)

        let error = thrownError { try act(scene) }

        let after = scene.watchedDirectories.map(FileSnapshot.init)
        guard let error else {
            Issue.record("\(name): the flow did not fail")
            return
        }
        #expect(outcomeName(error) == expected, "\(error)")
        for (earlier, later) in zip(before, after) {
            #expect(later == earlier, "a file changed: \(later.differences(from: earlier))")
            #expect(later.leftovers.isEmpty, "left behind: \(later.leftovers)")
        }
        if leavesManagerClosed {
            #expect(scene.managers.allSatisfy { !$0.isOpen }, "a failed open or create left a manager open")
        }
        checkMessage(of: error, in: scene)
    }

    private func checkMessage(of error: any Error, in scene: Scene) {
        for text in ["\(error)", String(reflecting: error), error.localizedDescription] {
            #expect(text.count >= 40, "the message is too short to help: \(text)")
            for password in scene.passwords where password.trimmingCharacters(in: .whitespaces).count >= 3 {
                #expect(!text.contains(password), "the message contains a password")
            }
        }
        let message = "\(error)"
        if let error = error as? DatabaseManagerError, !Self.pathless.contains(error.caseName) {
            #expect(message.contains(scene.url.deletingLastPathComponent().path), "the message does not name the file")
        }
        if let mentions {
            #expect(message.contains(mentions), "expected “\(mentions)” in: \(message)")
        }
    }

    private func skipUnlessSupported() throws {
        switch needs {
        case .nothing: break
        case .readOnly:
            if !ReadOnly.isSupported { try Test.cancel("skipped: cannot make a path read-only here (root without chattr +i)") }
        case .smallDisk:
            if !SmallDisk.isSupported { try Test.cancel("skipped: mounting a small tmpfs needs root") }
        case .sqlcipher3:
            if let version = DatabaseTools.linkedSQLCipherVersion, version.major >= 4 {
                try Test.cancel("skipped: SQLCipher \(version) is linked; the case is about 3.x")
            }
        }
    }
}
