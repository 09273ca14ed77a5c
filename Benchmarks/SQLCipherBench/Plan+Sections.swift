// MARK: - Sections

extension Plan {
    var sections: [Section] { [api, migration, settings] }

    /// Swift public API vs raw C, both encrypted; raw C plaintext for the encryption overhead.
    var api: Section {
        var rows: [Comparison] = []
        for size in sizes {
            rows.append(Comparison(name: "insert \(Self.label(size)) rows, 1 transaction",
                                   jobs: [Job(.insert, .swift, rows: size), Job(.insert, .c, rows: size), Job(.insert, .plain, rows: size)],
                                   target: 1.05))
        }
        for size in sizes {
            rows.append(Comparison(name: "insert \(Self.label(size)) rows, 1 transaction (prepare + execute)",
                                   jobs: [Job(.insertPrepared, .swift, rows: size), Job(.insert, .c, rows: size), Job(.insert, .plain, rows: size)],
                                   target: 1.05))
        }
        for size in sizes {
            rows.append(Comparison(name: "read all \(Self.label(size)) rows (forEachRowView, text as String)",
                                   jobs: [Job(.readView, .swift, rows: size), Job(.readAll, .c, rows: size), Job(.readAll, .plain, rows: size)],
                                   target: 1.10))
        }
        for size in sizes {
            rows.append(Comparison(name: "read all \(Self.label(size)) rows (forEachRowView, text as UTF-8 bytes)",
                                   jobs: [Job(.readBytes, .swift, rows: size), Job(.readAll, .c, rows: size), Job(.readAll, .plain, rows: size)],
                                   target: 1.10))
        }
        for size in sizes {
            rows.append(Comparison(name: "read all \(Self.label(size)) rows (forEachRow)",
                                   jobs: [Job(.readAll, .swift, rows: size), Job(.readAll, .c, rows: size), Job(.readAll, .plain, rows: size)],
                                   target: 1.10))
        }
        let largest = sizes.last ?? 0
        rows.append(Comparison(name: "read all \(Self.label(largest)) rows (fetchAll → [Row])",
                               jobs: [Job(.fetchAll, .swift, rows: largest), Job(.readAll, .c, rows: largest), Job(.readAll, .plain, rows: largest)],
                               target: nil))
        rows.append(Comparison(name: "\(Self.label(lookupCount)) random PK lookups (fetchOne), \(Self.label(lookupRows)) rows",
                               jobs: [.init(.lookups, .swift, rows: lookupRows, count: lookupCount),
                                      .init(.lookups, .c, rows: lookupRows, count: lookupCount),
                                      .init(.lookups, .plain, rows: lookupRows, count: lookupCount)],
                               target: 1.10))
        rows.append(Comparison(name: "\(Self.label(lookupCount)) random PK lookups (prepare + forEachRow), \(Self.label(lookupRows)) rows",
                               jobs: [.init(.lookupsPrepared, .swift, rows: lookupRows, count: lookupCount),
                                      .init(.lookups, .c, rows: lookupRows, count: lookupCount),
                                      .init(.lookups, .plain, rows: lookupRows, count: lookupCount)],
                               target: 1.10))
        let openRows = sizes.first ?? 0
        rows.append(Comparison(name: "open + unlock (KDF) + close",
                               jobs: [Job(.open, .swift, rows: openRows), Job(.open, .c, rows: openRows), Job(.open, .plain, rows: openRows)],
                               target: 1.02))
        return Section(key: "api", title: "Swift public API vs raw C (encrypted); raw C plaintext for reference",
                       labels: ["Swift API", "raw C", "C plaintext"], comparisons: rows)
    }

    /// Crash-safe migrations vs the bare `sqlcipher_export`.
    var migration: Section {
        var rows = migrationSizes.map { size in
            Comparison(name: "encrypt plaintext DB of \(Self.label(size)) rows",
                       jobs: [Job(.encrypt, .swift, rows: size), Job(.encrypt, .c, rows: size)], target: 1.5)
        }
        rows.append(Comparison(name: "rekey \(Self.label(rekeyRows)) rows",
                               jobs: [Job(.rekey, .swift, rows: rekeyRows), Job(.rekey, .c, rows: rekeyRows)], target: 1.5))
        return Section(key: "migration", title: "Crash-safe migration (Swift API) vs bare sqlcipher_export (raw C)",
                       labels: ["crash-safe", "bare export"], comparisons: rows)
    }

    /// Page size and cache size: encrypted ÷ plaintext, both in raw C.
    var settings: Section {
        let size = sizes.last ?? 0
        var rows: [Comparison] = []
        for (pageSize, cacheSize) in [(0, 0), (4096, 0), (0, -16384), (4096, -16384)] {
            let setting = "page \(pageSize == 0 ? "default" : "\(pageSize)"), cache \(cacheSize == 0 ? "default" : "\(-cacheSize / 1024) MiB")"
            for workload in [Job.Workload.insert, .readAll, .lookups] {
                let count = workload == .lookups ? lookupCount : 0
                let jobs = [Job.Implementation.c, .plain].map {
                    Job(workload, $0, rows: size, count: count, pageSize: pageSize, cacheSize: cacheSize)
                }
                rows.append(Comparison(name: "\(workload.rawValue) \(Self.label(size)): \(setting)", jobs: jobs, target: nil))
            }
        }
        return Section(key: "settings", title: "Settings: encrypted ÷ plaintext overhead (raw C)",
                       labels: ["C encrypted", "C plaintext"], comparisons: rows)
    }
}
