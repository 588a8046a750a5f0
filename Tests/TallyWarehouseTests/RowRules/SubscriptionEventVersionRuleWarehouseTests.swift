import GRDB
import Testing
import TallyCore
@testable import TallyIngest
@testable import TallyWarehouse

/// The subscription event rows the warehouse rejects and supersedes are the
/// rows `SubscriptionEventVersionRule` rejects and supersedes in the same
/// groups, with the same reasons and the same counts per file.
@Suite("Subscription event repeats follow SubscriptionEventVersionRule")
struct SubscriptionEventVersionRuleWarehouseTests {
    struct Generated { var id: String; var user: String; var version: SubscriptionEventVersionRule.Row }

    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func theDerivationAgreesWithTheRule(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        var rows: [Generated] = []
        try warehouse.queue.write { db in
            let files = try GeneratedLog.files(db, name: "events.csv", dataset: "subscriptions",
                                               tables: [TableID.events.rawValue, "appStoreConnectReport"], rng: &rng)
            for f in files {
                for line in Int64(2)..<Int64.random(in: 2...10, using: &rng) {
                    let id = GeneratedLog.keys.randomElement(using: &rng)!
                    let user = ["u1", "u2", "u3"].randomElement(using: &rng)!
                    try db.execute(sql: """
                        INSERT INTO subscription_event_row (id, app, user_id, event, at, file_id, line)
                        VALUES (?, 'FisioFlow', ?, 'renewed', ?, ?, ?)
                        """, arguments: [id, user, line, f.id, line])
                    rows.append(Generated(id: id, user: user, version: SubscriptionEventVersionRule.Row(
                        file: f.id, loadSeq: f.loadSeq, line: line, row: db.lastInsertedRowID,
                        source: f.table == TableID.events.rawValue ? .eventLog : .subscriberReport)))
                }
            }
            _ = try SubscriptionLogSchema.events.refresh(db)
        }

        var superseded = Set<Int64>()
        var rejected = Set<Int64>()
        var rejects: [String] = []
        var rejectedPerFile: [Int64: Int] = [:]
        var supersededPerFile: [Int64: Int] = [:]
        for group in KeyGroups.split(rows, key: { Array($0.id.utf8) }) {
            for (row, verdict) in zip(group, SubscriptionEventVersionRule().verdicts(group.map(\.version))) {
                switch verdict {
                case .counts: break
                case .superseded:
                    superseded.insert(row.version.row)
                    supersededPerFile[row.version.file, default: 0] += 1
                case .rejected(let reason):
                    rejected.insert(row.version.row)
                    rejectedPerFile[row.version.file, default: 0] += 1
                    let record = row.version.source.rejectNamesUser ? row.user : row.id
                    rejects.append("\(row.version.file):\(row.version.line) \(record.unicodeScalars.map(\.value)) \(reason)")
                }
            }
        }
        try warehouse.read { r in
            #expect(Set(try Int64.fetchAll(r.db, sql: "SELECT row FROM subscription_event_superseded")) == superseded)
            let kept = Set(try Int64.fetchAll(r.db, sql: "SELECT rowid FROM subscription_event_row"))
            #expect(kept == Set(rows.map(\.version.row)).subtracting(rejected))
            let stored = try Row.fetchAll(r.db, sql: "SELECT file_id, line, record_id, reason FROM ingest_reject").map { row in
                "\(row[0] as Int64):\(row[1] as Int64) \((row[2] as String).unicodeScalars.map(\.value)) \(row[3] as String)"
            }
            #expect(stored.sorted() == rejects.sorted())
            let counts = try GeneratedLog.counts(r.db, column: "rows_rejected")
            #expect(counts.filter { $0.value > 0 } == rejectedPerFile.filter { $0.value > 0 })
            let supersededCounts = try GeneratedLog.counts(r.db, column: "rows_superseded")
            #expect(supersededCounts.filter { $0.value > 0 } == supersededPerFile.filter { $0.value > 0 })
        }
    }
}
