import GRDB
import Testing
import TallyCore
@testable import TallyWarehouse

/// The check-ins the warehouse keeps are the rows `CheckinVersionRule`
/// picks, and their `duplicate_of` is what `DuplicateWorkoutRule` says of
/// the same winners.
@Suite("Check-in winners follow CheckinVersionRule and DuplicateWorkoutRule")
struct CheckinVersionRuleWarehouseTests {
    struct Generated {
        var rowid: Int64; var id: String; var workout: String?; var file: GeneratedLog.File
        var version: CheckinVersionRule.Row; var checkin: DuplicateWorkoutRule.Checkin
    }

    /// Random check-ins over several files (an id at most once per file, as
    /// the loader leaves them); returns them and runs the derivation.
    func generate(_ warehouse: Warehouse, seed: UInt64) throws -> [Generated] {
        var rng = SplitMix64(seed: seed)
        var rows: [Generated] = []
        try warehouse.queue.write { db in
            let files = try GeneratedLog.files(db, name: "checkins.csv", dataset: "checkins", tables: ["checkins"], rng: &rng)
            for f in files {
                let ids = GeneratedLog.keys.shuffled(using: &rng).prefix(Int.random(in: 0...GeneratedLog.keys.count, using: &rng))
                for (n, id) in ids.enumerated() {
                    let line = Int64(2 + n * 2)
                    let workout = ["w1", "W1", "w\u{E4}", "wa\u{308}", nil].randomElement(using: &rng)!
                    let created = Int64.random(in: 0...2, using: &rng) * 1_000_000
                    try db.execute(sql: """
                        INSERT INTO checkin_row (id, group_id, challenge_id, user_id, display_name, workout_entry_id,
                                                 minutes, created_at, file_id, line)
                        VALUES (?, 'g1', 'ch1', 'u1', 'U1', ?, 30, ?, ?, ?)
                        """, arguments: [id, workout, created, f.id, line])
                    let rowid = db.lastInsertedRowID
                    rows.append(Generated(
                        rowid: rowid, id: id, workout: workout, file: f,
                        version: CheckinVersionRule.Row(file: f.id, loadSeq: f.loadSeq, line: line, row: rowid),
                        checkin: DuplicateWorkoutRule.Checkin(createdAt: Timestamp(microseconds: created),
                                                              path: Array(f.displayPath.utf8), line: line, id: Array(id.utf8))))
                }
            }
            _ = try CheckinLogSchema.winners.refresh(db)
        }
        return rows
    }

    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func theDerivationAgreesWithTheRules(seed: UInt64) throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        let rows = try generate(warehouse, seed: seed)

        var winners: [Generated] = []
        var superseded: [Int64: Int] = [:]
        for group in KeyGroups.split(rows, key: { Array($0.id.utf8) }) {
            for (row, verdict) in zip(group, CheckinVersionRule(key: "id").verdicts(group.map(\.version))) {
                if verdict == .counts { winners.append(row) } else { superseded[row.file.id, default: 0] += 1 }
            }
        }
        var duplicateOf: [Int64: String] = [:]
        for group in KeyGroups.split(winners.filter { $0.workout != nil }, key: { Array($0.workout!.utf8) }) {
            for (row, verdict) in zip(group, DuplicateWorkoutRule.verdicts(group.map(\.checkin))) {
                if case .duplicate(let original) = verdict { duplicateOf[row.rowid] = group[original].id }
            }
        }

        try warehouse.read { r in
            let stored = try Row.fetchAll(r.db, sql: "SELECT log_row, duplicate_of FROM checkin_winner")
            #expect(Set(stored.map { $0[0] as Int64 }) == Set(winners.map(\.rowid)))
            var storedDuplicates: [Int64: String] = [:]
            for row in stored { if let first: String = row[1] { storedDuplicates[row[0]] = first } }
            #expect(storedDuplicates.mapValues { Array($0.utf8) } == duplicateOf.mapValues { Array($0.utf8) })
            let counts = try GeneratedLog.counts(r.db, column: "rows_superseded")
            #expect(counts.filter { $0.value > 0 } == superseded.filter { $0.value > 0 })
        }
    }
}
