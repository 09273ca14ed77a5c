import Foundation
import SQLCipherManager
import Testing

@testable import SQLCipherCore

/// An app matches ``DatabaseManagerError`` on its `code`, never on the cases inside it, so a
/// failure a later version adds cannot break the app's build: the compiler refuses a `switch` over
/// codes without `default`, and a `default` is where a new code goes.
@Suite struct ErrorCodeTests {
    static let reaction = """
        func reaction(to error: DatabaseManagerError) -> String {
            switch error.code {
            case .notOpen: return "open the database first"
            case .incorrectPasswordOrSettings: return "ask for the password again"
            DEFAULT
            }
        }
        func retries(_ error: DatabaseManagerError) -> Bool {
            switch error {
            case .notOpen: false
            case .busy: true
            default: false
            }
        }
        func launch(_ manager: DatabaseManager) -> String {
            do {
                try manager.open(password: "secret")
                return "opened"
            } catch DatabaseManagerError.Code.fileNotFound {
                return "create it"
            } catch let error as DatabaseManagerError where error.code == .busy {
                return "try again later: \\(error.path ?? "")"
            } catch {
                return reaction(to: error as? DatabaseManagerError ?? .notOpen)
            }
        }

        """

    @Test func anAppSwitchesOverCodesAndCatchesByCodeWithoutWarnings() throws {
        let source = Self.reaction.replacingOccurrences(of: "DEFAULT", with: "default: return error.description")
        let result = try AsyncOverloadTests.typecheck(source)
        #expect(result.status == 0 && !result.output.contains("warning"), "\(result.output)")
    }

    @Test func aSwitchOverCodesWithoutDefaultIsRefusedSoANewCodeCannotBreakAnApp() throws {
        let result = try AsyncOverloadTests.typecheck(Self.reaction.replacingOccurrences(of: "DEFAULT", with: ""))
        #expect(result.status != 0, "a switch over codes compiled without default: \(result.output)")
        #expect(result.output.contains("switch must be exhaustive"), "\(result.output)")
    }

    @Test func aCatchByCodeMatchesThatCodeWhateverItsDetails() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        var matched: [DatabaseManagerError.Code] = []
        do {
            try manager.open(password: "secret")
        } catch DatabaseManagerError.Code.incorrectPasswordOrSettings {
            matched.append(.incorrectPasswordOrSettings)
        } catch DatabaseManagerError.Code.fileNotFound {
            matched.append(.fileNotFound)
        }
        #expect(matched == [.fileNotFound])
        let error = try #require(throws: DatabaseManagerError.self) { try manager.open(password: "secret") }
        #expect(error.code == .fileNotFound && error.code.description == "fileNotFound")
        #expect(error == .fileNotFound(path: try #require(manager.databaseURL?.path)) && error.path == manager.databaseURL?.path)
        #expect(throws: DatabaseManagerError.notOpen) { try manager.readSync { _ in 1 } }
    }

    /// The codes' `~=` over any error is disfavored, so a `switch` over another type's values keeps
    /// that type's own match: `case .permissionDenied:` over an `Errno` is not a question about the
    /// error codes of the same name (which would always say no).
    @Test(arguments: [
        (Errno.permissionDenied, DatabaseManagerError.Code.permissionDenied, KeyStoreError.Code.permissionDenied),
        (.notPermitted, .permissionDenied, .permissionDenied), (.noSpace, .diskFull, .failed),
        (.noSuchFile, .fileNotFound, .failed), (.fileExists, .fileAlreadyExists, .failed), (.nameTooLong, .invalidPath, .failed),
    ])
    func aSwitchOverAnotherTypeKeepsItsOwnMatch(_ errno: Errno, _ manager: DatabaseManagerError.Code, _ store: KeyStoreError.Code) {
        let failure = FileSystem.Failure(operation: "open", path: "/x/test.db", errno: errno)
        #expect(DatabaseManagerError(failure).code == manager)
        #expect(KeyStoreError("open", "/x/key", errno).code == store)
    }

    /// The manager throws a key-slot error inside its own, and a key-slot code matches it there.
    @Test func aKeySlotCodeMatchesTheManagerErrorThatCarriesIt() {
        func caught(_ error: any Error) -> Bool {
            do { throw error } catch KeySlotError.Code.lastSlot { return true } catch { return false }
        }
        #expect(caught(DatabaseManagerError.keySlots(.lastSlot(id: 3))) && caught(KeySlotError.lastSlot(id: 3)))
        #expect(!caught(DatabaseManagerError.keySlots(.slotNotFound(id: 3))) && !caught(DatabaseManagerError.notOpen))
        #expect(DatabaseManagerError.keySlots(.lastSlot(id: 3)).keySlotError == .lastSlot(id: 3))
    }
}
