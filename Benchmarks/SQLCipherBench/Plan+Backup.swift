// MARK: - Backup section

extension Plan {
    /// `--only backup`: `open` + `backup(to:)` of an encrypted database of about
    /// 100 MB (a few hundred kB in `--quick`) — snapshot, export, flush, verification, link —
    /// against a bare `sqlcipher_export` of it into an attached file with the same password.
    /// Goal: ≤ 1.2×.
    var backup: Section {
        let comparison = Comparison(
            name: "backup of a \(Self.label(backupRows))-row encrypted database vs a bare sqlcipher_export",
            jobs: [Job(.backup, .swift, rows: backupRows), Job(.backup, .c, rows: backupRows)], target: 1.2)
        return Section(
            key: "backup", title: "Verified backup (Swift API) vs bare sqlcipher_export (raw C)",
            labels: ["backup", "bare export"], comparisons: [comparison])
    }
}
