import Foundation
import GRDB
import Testing
import TallyCore
import TallyIngest
@testable import TallyWarehouse

/// Random rows of a few seeds, judged twice: by the TallyCore rule applied
/// to every group (or row) directly, and by the warehouse path (the
/// derivation's grouping, the readers' lookups). The verdicts must be the same.
@Suite("Row rules through the warehouse")
struct RowRulesWarehouseTests {
    static let seeds: [UInt64] = [1, 2, 3, 17, 42, 2026]

    /// User ids that differ in their bytes though two are equal as Swift
    /// strings (precomposed and decomposed ç): the rule's groups are byte groups.
    static let users = ["u1", "u2", "\u{E7}a", "c\u{327}a", "u10"]
    static let dates = ["2026-10-01", "2026-10-02", "2026-10-03"]

    @Test("activity: the superseded rows are the rule's, group by group", arguments: seeds)
    func activity(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        // Every row with what the rule sees and a name for it: "r<rowid>" for
        // an activity row, "x<file> <date>" for an export's day.
        var rows: [(key: [UInt8], rank: ActivityDayRule.Row, name: String)] = []
        try warehouse.ingest { s in
            for n in 0..<Int.random(in: 1...4, using: &rng) {
                let path = "/d\(n)/health/activity.csv"
                let f = try s.beginFile(file(.activity, "d\(n)/health/activity.csv"), absolutePath: path, bytes: 1, sha256: "a\(n)")
                let load = try Int64.fetchOne(s.db, sql: "SELECT load_seq FROM input_file WHERE id = ?", arguments: [f])!
                for line in 1...Int64.random(in: 1...30, using: &rng) {
                    let user = Self.users.randomElement(using: &rng)!, date = Self.dates.randomElement(using: &rng)!
                    try s.db.execute(sql: """
                        INSERT INTO activity_row (user_id, date, steps, active_calories, walking_km, file_id, line)
                        VALUES (?, ?, 1, 1, 1, ?, ?)
                        """, arguments: [user, date, f, line])
                    rows.append((Array(user.utf8) + [0] + Array(date.utf8), ActivityDayRule.Row(fromExport: false, loadSeq: load, line: line),
                                 "r\(s.db.lastInsertedRowID)"))
                }
            }
            for n in 0..<Int.random(in: 0...3, using: &rng) {
                let user = Self.users.randomElement(using: &rng)!
                let path = "/e\(n)/health/\(user)/export.xml"
                let f = try s.beginFile(InputFile(url: URL(fileURLWithPath: path), relativePath: "e\(n)/health/\(user)/export.xml",
                                                  kind: .appleHealthExport(userId: user)),
                                        absolutePath: path, bytes: 1, sha256: "x\(n)")
                let load = try Int64.fetchOne(s.db, sql: "SELECT load_seq FROM input_file WHERE id = ?", arguments: [f])!
                for date in Self.dates where Bool.random(using: &rng) {
                    // Noon UTC: the same day in the default zone (São Paulo).
                    let noon = Timestamp(seconds: (LocalDate.parse(date)!.daysSinceEpoch * 86_400) + 43_200)
                    try s.insertHealthRecord(userId: user, start: noon, quantity: .steps, source: "phone", value: 2, file: f)
                    rows.append((Array(user.utf8) + [0] + Array(date.utf8), ActivityDayRule.Row(fromExport: true, loadSeq: load, line: 0),
                                 "x\(f) \(date)"))
                }
            }
        }
        var expected: Set<String> = []
        for group in Dictionary(grouping: rows, by: \.key).values {
            expected.formUnion(WhichRowsCount.sort(group, by: ActivityDayRule()) { _, r in r.rank }.superseded.map(\.name))
        }
        let stored = try warehouse.read { r in
            try String.fetchAll(r.db, sql: """
                SELECT 'r' || s.source_row FROM activity_superseded s WHERE s.from_export = 0
                UNION ALL
                SELECT 'x' || h.file_id || ' ' || h.date FROM activity_superseded s JOIN health_export_day h ON h.rowid = s.source_row
                WHERE s.from_export = 1
                """)
        }
        #expect(Set(stored) == expected && stored.count == expected.count, "seed \(seed)")
        // Each activity file's superseded count is its rows among the losers.
        let losers = try warehouse.read { r in
            try Dictionary(grouping: Int64.fetchAll(r.db, sql: """
                SELECT a.file_id FROM activity_superseded s JOIN activity_row a ON a.rowid = s.source_row WHERE s.from_export = 0
                """), by: { $0 }).mapValues(\.count)
        }
        for file in try warehouse.read({ try $0.inputFiles() }) where !file.displayPath.hasSuffix("export.xml") {
            #expect(file.rowsSuperseded == losers[file.id] ?? 0, "seed \(seed) \(file.displayPath)")
        }
        // What the month query streams is one row per user and day, the rule's counted one.
        var streamed: [String] = []
        try warehouse.read { r in
            try r.forEachActivityUser(in: LocalDate.parse("2026-10-01")!...LocalDate.parse("2026-10-31")!) { user, days in
                streamed += days.map { "\(user) \($0.date)" }
            }
        }
        #expect(streamed.count == Set(rows.map(\.key)).count, "seed \(seed)")
    }

    @Test("rows of an unknown couple and failed winners: the rejects are the rules'", arguments: seeds)
    func expenses(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let couples: Set<String> = ["c1", "c2"]
        let coupleIds = ["c1", "c2", "c8", "c9"]
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        var expected: Set<String> = []
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.expenses, "expenses/expenses.csv"), absolutePath: "/d/expenses/expenses.csv",
                                    bytes: 1, sha256: "a")
            for couple in couples {
                try s.db.execute(sql: "INSERT INTO couple (id, name, currency, file_id, line) VALUES (?, 'n', 'BRL', ?, 1)",
                                 arguments: [couple, f])
            }
            var line = 1
            let children: [(table: String, child: OrphanRule.Child)] = [
                ("member", .member), ("card", .card), ("settlement", .settlement), ("agreement", .agreement)]
            for (table, child) in children {
                for n in 0..<Int.random(in: 0...8, using: &rng) {
                    let couple = coupleIds.randomElement(using: &rng)!
                    line += 1
                    let columns: String
                    switch table {
                    case "member": columns = "display_name) VALUES (?, ?, ?, ?, 'x')"
                    case "card": columns = "label) VALUES (?, ?, ?, ?, 'x')"
                    case "settlement":
                        columns = "from_member, to_member, amount, currency, date) VALUES (?, ?, ?, ?, 'a', 'b', 1, 'BRL', '2026-10-01')"
                    default:
                        columns = """
                            description, amount, currency, paid_by, split_type, split, tag, day_of_month, start_date)
                            VALUES (?, ?, ?, ?, 'd', 1, 'BRL', 'a', 'equal', '', '', 1, '2026-10-01')
                            """
                    }
                    try s.db.execute(sql: "INSERT INTO \(table) (id, couple_id, file_id, line, \(columns)",
                                     arguments: ["\(table)\(n)", couple, f, line])
                    if let reason = OrphanRule.reject(child, parentId: couple, parentExists: couples.contains(couple)) {
                        expected.insert("\(line) \(table)\(n) \(reason)")
                    }
                }
            }
            for n in 0..<Int.random(in: 0...20, using: &rng) {
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    line += 1
                    let failed = Int.random(in: 0..<3, using: &rng) == 0
                    let deleted = Int.random(in: 0..<4, using: &rng) == 0
                    let couple = failed && Bool.random(using: &rng) ? nil : coupleIds.randomElement(using: &rng)!
                    try s.db.execute(sql: """
                        INSERT INTO expense_version (id, updated_at, deleted_at, couple_id, error, file_id, line)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """, arguments: ["e\(n)", Int64.random(in: 1...5, using: &rng), deleted ? 1 : nil, couple,
                                         failed ? "amount 'x\(line)' is not a decimal" : nil, f, line])
                }
            }
        }
        // The rule applied to every winner the warehouse chose.
        try warehouse.read { r in
            for row in try Row.fetchAll(r.db, sql: """
                SELECT v.line, v.id, v.error, v.deleted_at IS NOT NULL, w.couple_id
                FROM expense_winner w JOIN expense_version v ON v.rowid = w.version_row
                """) {
                let couple: String = row[4]
                if let reason = WinningExpenseRejectRule.reject(
                    error: (row[2] as String?).map { RejectReason(code: .amountNotDecimal, text: $0) }, deleted: row[3], coupleId: couple,
                                                                coupleExists: couples.contains(couple)) {
                    expected.insert("\(row[0] as Int) \(row[1] as String) \(reason)")
                }
            }
        }
        let rejects = try warehouse.read { try unattachedRejects($0) }.map { "\($0.line) \($0.id) \($0.reason)" }
        #expect(Set(rejects) == expected && rejects.count == expected.count, "seed \(seed)")
    }

    @Test("check-ins of an unknown challenge: the rejects are the rule's", arguments: seeds)
    func checkins(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let challenges: Set<String> = ["ch1", "ch2"]
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.checkins, "checkins/checkins.ndjson"), absolutePath: "/d/checkins/checkins.ndjson",
                                    bytes: 1, sha256: "a")
            for challenge in challenges {
                try s.db.execute(sql: """
                    INSERT INTO challenge (id, group_id, name, start_date, end_date, file_id, line)
                    VALUES (?, 'g1', 'n', '2026-10-01', '2026-10-31', ?, 1)
                    """, arguments: [challenge, f])
            }
            // An id once per file, as the load leaves the log (`removeRepeatedCheckins`).
            for n in 0..<Int.random(in: 0...30, using: &rng) {
                try s.db.execute(sql: """
                    INSERT INTO checkin_row (id, group_id, challenge_id, user_id, display_name, minutes, created_at, file_id, line)
                    VALUES (?, 'g1', ?, 'u', 'U', 30, ?, ?, ?)
                    """, arguments: ["k\(n)", ["ch1", "ch2", "ch8", "ch9"].randomElement(using: &rng)!,
                                     Int64.random(in: 1...9, using: &rng), f, n + 2])
            }
        }
        let expected = try warehouse.read { r in
            Set(try Row.fetchAll(r.db, sql: """
                SELECT r.line, w.id, w.challenge_id FROM checkin_winner w JOIN checkin_row r ON r.rowid = w.log_row
                """).compactMap { row -> String? in
                let challenge: String = row[2]
                return OrphanRule.reject(.checkin, parentId: challenge, parentExists: challenges.contains(challenge))
                    .map { "\(row[0] as Int) \(row[1] as String) \($0)" }
            })
        }
        let rejects = try warehouse.read { try unattachedCheckinRejects($0) }.map { "\($0.line) \($0.id) \($0.reason)" }
        #expect(Set(rejects) == expected && rejects.count == expected.count, "seed \(seed)")
    }
}
