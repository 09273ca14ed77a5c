// MARK: - Key slots section

extension Plan {
    /// `--only keyslots`: a password change through key slots against the crash-safe export
    /// rekey on the same database (1 GiB in the full run; goal: ≤ 1 s for key slots, Argon2id
    /// included, whatever the size), and an unlock through a password slot against a
    /// password-keyed (PBKDF2) open.
    var keySlots: Section {
        let size = keySlotMegabytes >= 1024 && keySlotMegabytes % 1024 == 0 ? "\(keySlotMegabytes / 1024) GiB" : "\(keySlotMegabytes) MiB"
        let change = Comparison(
            name: "password change, \(size) database: key slots vs export rekey",
            jobs: [Job(.slotChange, .swift, rows: keySlotMegabytes), Job(.slotRekey, .swift, rows: keySlotMegabytes)],
            target: nil)
        let unlock = Comparison(
            name: "open + unlock + close: key slot (Argon2id, calibrated) vs password (PBKDF2)",
            jobs: [Job(.slotOpen, .swift, rows: keySlotMegabytes), Job(.open, .swift, rows: sizes.first ?? 0)],
            target: nil)
        return Section(
            key: "keyslots", title: "Key slots (Swift API): one slot resealed vs every page re-encrypted",
            labels: ["key slots", "password"], comparisons: [change, unlock])
    }
}
