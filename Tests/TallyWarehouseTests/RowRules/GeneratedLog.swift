import GRDB
import TallyCore
@testable import TallyWarehouse

/// Input files of a generated log, for comparing a derivation with its
/// TallyCore rule on the same rows.
enum GeneratedLog {
    /// Keys that repeat often, two of them equal as Strings but not as bytes.
    static let keys = ["e1", "E1", "\u{E4}", "a\u{308}", "e2", "m10", "m2"]

    struct File {
        var id: Int64
        var loadSeq: Int64
        var displayPath: String
        var table: String
    }

    /// Inserts 2–5 input files of `tables` (chosen at random), loaded in an
    /// order other than their ids', with display paths whose byte order
    /// differs from their load order.
    static func files(_ db: Database, name: String, dataset: String, tables: [String],
                      rng: inout SplitMix64) throws -> [File] {
        let count = Int.random(in: 2...5, using: &rng)
        let folders = ["a", "Z", "\u{E9}", "b", "e\u{301}"].shuffled(using: &rng)
        let loads = Array(1...Int64(count)).shuffled(using: &rng)
        return try (0..<count).map { n in
            let file = File(id: Int64(n + 1), loadSeq: loads[n], displayPath: "\(folders[n])/\(dataset)/\(name)",
                            table: tables.randomElement(using: &rng)!)
            try db.execute(sql: """
                INSERT INTO input_file (id, path, display_path, dataset, table_name, bytes, sha256, load_seq)
                VALUES (?, ?, ?, ?, ?, 1, ?, ?)
                """, arguments: [file.id, "/d/" + file.displayPath, file.displayPath, dataset, file.table,
                                 "sha\(n)", file.loadSeq])
            return file
        }
    }

    /// Each file's superseded (or rejected) count, by file id, as stored.
    static func counts(_ db: Database, column: String) throws -> [Int64: Int] {
        var out: [Int64: Int] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, \(column) FROM input_file") { out[row[0]] = row[1] }
        return out
    }
}
