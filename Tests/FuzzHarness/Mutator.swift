import Foundation
import SeededRandom

// MARK: - Mutator

/// Deterministic damage to a ``FileSet``: byte flips, truncation, page duplication and zeroing,
/// splices of pages from another database, foreign, garbage, dropped or cut `-wal`/`-journal`.
public struct Mutator {
    public enum Kind: String, CaseIterable, Sendable {
        case flipBytes, truncate, duplicatePage, zeroPage, splicePage
        case foreignSidecar, garbageSidecar, dropSidecar, cutSidecar
    }

    /// SQLCipher 3's default page size.
    static let pageSize = 1024
    /// The first bytes of a big-endian WAL header (`0x377f0682`) and a 1024-byte page size.
    static let walMagic: [UInt8] = [0x37, 0x7F, 0x06, 0x82, 0x00, 0x2D, 0xE2, 0x18, 0x00, 0x00, 0x04, 0x00]

    var generator: SeededGenerator
    let donors: [FileSet]

    /// `donors` lend pages and sidecars to splices and foreign sidecars.
    public init(seed: UInt64, donors: [FileSet]) {
        generator = SeededGenerator(seed: seed)
        self.donors = donors
    }

    /// One to three mutations of `files`, and their names.
    public mutating func mutate(_ files: FileSet) -> (FileSet, [String]) {
        var result = files
        var names: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let kind = Kind.allCases.randomElement(using: &generator)!
            names.append(apply(kind, to: &result))
        }
        return (result, names)
    }

    mutating func apply(_ kind: Kind, to set: inout FileSet) -> String {
        let target = set.files.keys.sorted().randomElement(using: &generator) ?? ""
        switch kind {
        case .flipBytes:
            guard var data = set.files[target], !data.isEmpty else { return "flip (empty)" }
            let count = Int.random(in: 1...8, using: &generator)
            for _ in 0..<count { data[Int.random(in: 0..<data.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator) }
            set.files[target] = data
            return "flip \(count) in '\(target)'"
        case .truncate:
            let size = set.main.count
            let length =
                Bool.random(using: &generator)
                ? Int.random(in: 0...max(size / Self.pageSize, 1), using: &generator) * Self.pageSize
                : Int.random(in: 0...max(size, 1), using: &generator)
            set.main = set.main.prefix(length)
            return "truncate main to \(length)"
        case .duplicatePage, .zeroPage, .splicePage:
            return replacePage(kind, in: &set)
        case .foreignSidecar:
            let donor = donors.randomElement(using: &generator)!
            guard let suffix = FileSet.sidecars.filter({ donor.files[$0] != nil }).randomElement(using: &generator) else {
                return "foreign (none)"
            }
            set.files[suffix] = donor.files[suffix]
            return "foreign '\(suffix)'"
        case .garbageSidecar:
            let suffix = FileSet.sidecars.randomElement(using: &generator)!
            let length = Int.random(in: 1...(3 * Self.pageSize + 100), using: &generator)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if suffix == "-wal", Bool.random(using: &generator) {
                bytes.replaceSubrange(0..<min(12, length), with: Self.walMagic.prefix(length))
            }
            set.files[suffix] = Data(bytes)
            return "garbage '\(suffix)' (\(length))"
        case .dropSidecar:
            guard let suffix = FileSet.sidecars.filter({ set.files[$0] != nil }).randomElement(using: &generator) else {
                return "drop (none)"
            }
            set.files[suffix] = nil
            return "drop '\(suffix)'"
        case .cutSidecar:
            guard let suffix = FileSet.sidecars.filter({ set.files[$0] != nil }).randomElement(using: &generator),
                let data = set.files[suffix]
            else { return "cut (none)" }
            let length = Int.random(in: 0...data.count, using: &generator)
            set.files[suffix] = data.prefix(length)
            return "cut '\(suffix)' to \(length)"
        }
    }

    /// Overwrites one page of the main file with a copy of another, zeros, or a donor's page.
    mutating func replacePage(_ kind: Kind, in set: inout FileSet) -> String {
        var main = set.main
        let pages = main.count / Self.pageSize
        guard pages > 0 else { return "\(kind) (no page)" }
        let page = Int.random(in: 0..<pages, using: &generator)
        let range = page * Self.pageSize..<(page + 1) * Self.pageSize
        let replacement: Data
        switch kind {
        case .duplicatePage:
            let from = Int.random(in: 0..<pages, using: &generator)
            replacement = main.subdata(in: from * Self.pageSize..<(from + 1) * Self.pageSize)
        case .splicePage:
            let donor = donors.randomElement(using: &generator)!.main
            let donorPages = donor.count / Self.pageSize
            guard donorPages > 0 else { return "splice (no donor page)" }
            let from = Int.random(in: 0..<donorPages, using: &generator)
            replacement = donor.subdata(in: from * Self.pageSize..<(from + 1) * Self.pageSize)
        default:
            replacement = Data(count: Self.pageSize)
        }
        main.replaceSubrange(range, with: replacement)
        set.main = main
        return "\(kind) \(page)"
    }
}
