import Foundation
import SQLCipherCore

// MARK: - KeySlotFile

/// The content of `<db>.scm-keys`: the database's identity, its data key's generation and the
/// slots, as JSON (binary fields in base64), with an authenticator over all of it keyed with
/// the data key. Nothing in it is key material in clear.
package struct KeySlotFile: Codable, Equatable {
    static let formatName = "sqlciphermanager-key-slots"
    static let currentVersion = 1
    /// The first 8 bytes of a key-slot database's salt (its first 16 bytes on disk), so that a
    /// database whose slot file is missing is recognised without a key.
    package static let saltMarker = Array("SCM-KEYS".utf8)

    var format = Self.formatName
    var version = Self.currentVersion
    /// 16 random bytes naming the database; its first 8 are the second half of the database's salt.
    package var databaseID: Data
    /// Incremented by each data-key rotation; bound into every sealed data key.
    package var generation: Int
    /// The highest slot id ever used, so ids are never reused.
    var lastSlotID: Int
    /// Incremented by every write of the file (create, add, remove, change-password, rotate)
    /// and recorded inside the encrypted database (``KeySlotRevision``): an older copy of the
    /// file put back is refused. Bound into the authenticator; `nil` in files written before
    /// revisions (read as 0).
    var revision: Int?
    /// Only in a `.next` file of a conversion back to a password: afterwards the database is
    /// keyed with the password itself and has no slot file.
    package var passwordKeyed: Bool?
    package var slots: [KeySlotRecord]
    var authenticator: Data
    /// Unkeyed BLAKE2b of every field and the authenticator: catches a damaged or hand-edited
    /// file before any key is tried (an attacker can recompute it; the AEAD tags and the
    /// authenticator are what they cannot forge).
    var checksum = Data()

    package init(databaseID: Data, generation: Int = 1) {
        self.databaseID = databaseID
        self.generation = generation
        lastSlotID = 0
        revision = 1
        slots = []
        authenticator = Data()
    }

    /// The salt the database file carries: the marker, then 8 bytes of the identity.
    var databaseSalt: [UInt8] { Self.saltMarker + Array(databaseID.prefix(8)) }

    // MARK: - Authenticator

    /// Keyed BLAKE2b of every field, with a key BLAKE2b-derived from the data key.
    func authenticatorValue(dataKey: SecretBytes) -> SecretBytes {
        let label = Data("scm-keys/1 authenticator key".utf8)
        let key = label.withUnsafeBytes { Sodium.hash([$0], key: dataKey) }
        return canonicalBytes().withUnsafeBytes { Sodium.hash([$0], key: key) }
    }

    /// BLAKE2b of every field and the authenticator.
    var checksumValue: Data {
        (canonicalBytes() + authenticator).withUnsafeBytes { Sodium.hash([$0], key: nil) }.withBytes { Data($0) }
    }

    private func canonicalBytes() -> Data {
        var bytes = CanonicalBytes(purpose: "scm-keys/1 file")
        bytes.add(format)
        bytes.add(version)
        bytes.add(databaseID)
        bytes.add(generation)
        bytes.add(lastSlotID)
        bytes.add(passwordKeyed == true ? "password-keyed" : "slots")
        bytes.add(slots.count)
        for slot in slots { slot.appendAll(to: &bytes) }
        if let revision {
            bytes.add("revision")
            bytes.add(revision)
        }
        return bytes.data
    }

    package mutating func authenticate(dataKey: SecretBytes) {
        authenticator = authenticatorValue(dataKey: dataKey).withBytes { Data($0) }
        checksum = checksumValue
    }

    /// Compares in constant time.
    package func isAuthentic(dataKey: SecretBytes) -> Bool {
        Sodium.equal(authenticator, authenticatorValue(dataKey: dataKey))
    }

    // MARK: - Encoding

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// Parses and checks a file's bytes: format, version, field lengths, unique ids, costs in range.
    static func decode(_ data: Data, path: String) throws -> KeySlotFile {
        let file: KeySlotFile
        do {
            file = try JSONDecoder().decode(KeySlotFile.self, from: data)
        } catch {
            throw KeySlotError.slotFileDamaged(
                path: path, reason: data.isEmpty ? "it is empty" : "it is not a complete key-slot file (\(data.count) bytes)")
        }
        guard file.checksum == file.checksumValue else {
            throw KeySlotError.slotFileDamaged(path: path, reason: "its checksum does not match: it was damaged or edited")
        }
        guard file.format == formatName else { throw KeySlotError.slotFileDamaged(path: path, reason: "it is not a key-slot file") }
        guard file.version == currentVersion else {
            throw KeySlotError.slotFileDamaged(path: path, reason: "version \(file.version) is not supported (this library reads 1)")
        }
        guard file.databaseID.count == 16, file.generation > 0, (file.revision ?? 0) >= 0, file.authenticator.count == Sodium.keyLength,
            file.passwordKeyed == true || !file.slots.isEmpty,
            Set(file.slots.map(\.id)).count == file.slots.count,
            file.slots.allSatisfy({ $0.hasValidLengths && $0.id > 0 && $0.id <= file.lastSlotID })
        else { throw KeySlotError.slotFileDamaged(path: path, reason: "a field has an impossible value") }
        if let bad = file.slots.compactMap(\.argon2).first(where: { !$0.isInRange }) {
            throw KeySlotError.invalidKeyDerivation(bad)
        }
        if let excess = file.budgetExcess() {
            throw KeySlotError.slotFileDamaged(path: path, reason: "\(excess); this library never writes such a file")
        }
        return file
    }

    // MARK: - Work budget

    /// The most slots a file may have (LUKS2 has 32).
    static let maximumSlots = 64
    /// The most Argon2id work one unlock may cost, in passes × KiB: one slot at
    /// ``Argon2Parameters/maximum`` (64 passes over 1 GiB). A wrong password tries every
    /// password slot, so it is the sum over them that is bounded, checked before any derivation.
    static let maximumWork = Argon2Parameters.maximum.opsLimit * Argon2Parameters.maximum.memoryKiB

    /// The total Argon2id work of the password slots, in passes × KiB.
    var work: Int { slots.compactMap(\.argon2).reduce(0) { $0 + $1.opsLimit * $1.memoryKiB } }

    /// Why the file passes the budget, `nil` when it does not.
    package func budgetExcess() -> String? {
        if slots.count > Self.maximumSlots { return "it has \(slots.count) slots, more than \(Self.maximumSlots)" }
        guard work > Self.maximumWork else { return nil }
        return "its password slots together cost \(work / 1024) passes over one MiB of Argon2id, more than one "
            + "unlock may (\(Self.maximumWork / 1024))"
    }

    // MARK: - Slots

    /// Adds a slot for `secret` with the next id.
    package mutating func addSlot(
        _ secret: UnlockSecret, label: String, argon2: Argon2Parameters?, dataKey: SecretBytes
    ) throws -> KeySlotRecord {
        var budget = self
        budget.slots.append(
            KeySlotRecord(
                id: 0, kind: secret.kind, label: "", created: 0, salt: Data(), opsLimit: argon2?.opsLimit,
                memoryKiB: argon2?.memoryKiB, publicKey: Data(), secretNonce: Data(), sealedSecretKey: Data(),
                ephemeralKey: Data(), dataNonce: Data(), sealedDataKey: Data()))
        if let excess = budget.budgetExcess() { throw KeySlotError.slotLimitReached(reason: "with it, \(excess)") }
        let salt = Sodium.randomData(Sodium.saltLength)
        let kek = try secret.keyEncryptionKey(salt: salt, argon2: argon2)
        lastSlotID += 1
        let record = try KeySlotRecord.make(
            id: lastSlotID, kind: secret.kind, label: label, salt: salt, argon2: argon2, kek: kek, dataKey: dataKey,
            databaseID: databaseID, generation: generation)
        slots.append(record)
        return record
    }

    /// Seals a new data key to every slot (no secret needed) for the next generation.
    package func resealed(to dataKey: SecretBytes) throws -> KeySlotFile {
        var next = self
        next.generation += 1
        next.bumpRevision()
        for index in next.slots.indices {
            try next.slots[index].sealDataKey(dataKey, databaseID: databaseID, generation: next.generation)
        }
        next.authenticate(dataKey: dataKey)
        return next
    }

    /// The file's revision, 0 for a file written before revisions.
    package var currentRevision: Int { revision ?? 0 }

    /// Marks the file as the next revision (every change calls this before authenticating).
    package mutating func bumpRevision() { revision = currentRevision + 1 }
}
