import Foundation
import GRDB
import Testing
import TallyCore
@testable import TallyIngest
@testable import TallyWarehouse

/// Check-ins are appended to a log; repeated ids, later files and repeated
/// workouts are settled after the load (CheckinLogSchema).
@Suite("The check-in log")
struct CheckinLogTests {
    func checkin(_ id: String, user: String = "ana", workout: String? = nil, minutes: Int = 45, at seconds: Int64) -> CheckinRecord {
        CheckinRecord(id: id, groupId: "g1", challengeId: "ch1", userId: user, displayName: user.capitalized,
                      userPhotoURL: nil, checkInPhotoURL: "https://p/\(id).jpg", workoutEntryId: workout ?? "w-\(id)",
                      minutes: minutes, createdAt: Timestamp(seconds: 1_790_000_000 + seconds))
    }

    func challenge(_ s: IngestSession) throws {
        let f = try s.beginFile(file(.challenges, "checkins/challenges.csv"), absolutePath: "/d/challenges.csv", bytes: 1, sha256: "c")
        _ = try s.insert(ChallengeRecord(challenge: Challenge(id: "ch1", groupId: "g1", name: "Outubro",
                                                              startDate: LocalDate(year: 2026, month: 9, day: 1)!,
                                                              endDate: LocalDate(year: 2026, month: 12, day: 31)!)),
                         file: f, line: 2)
    }

    func checkins(_ warehouse: Warehouse) throws -> [CheckinFact] {
        try warehouse.read { r in
            var all: [CheckinFact] = []
            try r.forEachChallengeKey { if let p = LeaderboardsFamily.partition($0).partition { all += p.checkins } }
            return all
        }
    }

    @Test func anIdRepeatedInAFileIsRemovedAndReturnedWithItsLine() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        let repeats = try warehouse.ingest { s in
            try challenge(s)
            let f = try s.beginFile(file(.checkins, "checkins/checkins.csv"), absolutePath: "/d/checkins.csv", bytes: 1, sha256: "a")
            try s.insert(checkin("k1", at: 10), file: f, line: 2)
            try s.insert(checkin("k2", at: 20), file: f, line: 3)
            try s.insert(checkin("k1", user: "bia", at: 30), file: f, line: 4)   // the first k1 is kept
            try s.insert(checkin("k1", at: 40), file: f, line: 7)
            return try s.removeRepeatedCheckins(file: f)
        }
        #expect(repeats.map(\.line) == [4, 7])
        #expect(repeats.map(\.id) == ["k1", "k1"])
        #expect(repeats.map(\.reason) == Array(repeating: CheckinVersionRule.repeatReason(key: "id"), count: 2))
        let facts = try checkins(warehouse)
        #expect(facts.map(\.id) == ["k1", "k2"])
        #expect(facts.map(\.userId) == ["ana", "ana"])
        #expect(facts.map(\.source.line) == [2, 3])
        #expect(try warehouse.read { try $0.inputFiles().map(\.rowsSuperseded) } == [0, 0])
    }

    @Test func aLaterFileReplacesAnEarlierFilesRowAndItCountsAsSuperseded() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try warehouse.ingest { s in
            try challenge(s)
            let f = try s.beginFile(file(.checkins, "a/checkins/checkins.csv"), absolutePath: "/a/checkins.csv", bytes: 1, sha256: "a")
            try s.insert(checkin("k1", minutes: 30, at: 10), file: f, line: 2)
            try s.insert(checkin("k2", at: 20), file: f, line: 3)
            #expect(try s.removeRepeatedCheckins(file: f).isEmpty)
        }
        try warehouse.ingest { s in
            let g = try s.beginFile(file(.checkins, "b/checkins/checkins.csv"), absolutePath: "/b/checkins.csv", bytes: 1, sha256: "b")
            try s.insert(checkin("k1", minutes: 90, at: 50), file: g, line: 5)
            #expect(try s.removeRepeatedCheckins(file: g).isEmpty)
        }
        let facts = try checkins(warehouse)
        #expect(facts.map(\.id) == ["k2", "k1"])   // by createdAt: b's k1 is later than k2
        #expect(facts.map(\.minutes) == [45, 90])
        #expect(facts.last?.source == SourceRef(file: "b/checkins/checkins.csv", line: 5))
        let files = try warehouse.read { try $0.inputFiles() }.filter { $0.table == "checkins" }
        #expect(files.map(\.displayPath) == ["a/checkins/checkins.csv", "b/checkins/checkins.csv"])
        #expect(files.map(\.rowsSuperseded) == [1, 0])

        // Without the later file, the earlier file's row counts again.
        try warehouse.ingest { s in _ = try s.unloadVanished(under: "/b", present: []) }
        #expect(try checkins(warehouse).map(\.minutes) == [30, 45])
        #expect(try warehouse.read { try $0.inputFiles() }.map(\.rowsSuperseded) == [0, 0])
    }

    @Test func aRepeatedWorkoutPointsAtTheFirstCheckinOverAllChallengesAndFiles() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try warehouse.ingest { s in
            try challenge(s)
            let f = try s.beginFile(file(.checkins, "b/checkins.csv"), absolutePath: "/b/checkins.csv", bytes: 1, sha256: "b")
            try s.insert(checkin("k3", workout: "w", at: 30), file: f, line: 2)
            try s.insert(checkin("k1", workout: "w", at: 10), file: f, line: 3)
            try s.insert(checkin("k4", workout: nil, at: 10), file: f, line: 4)
            let g = try s.beginFile(file(.checkins, "a/checkins.csv"), absolutePath: "/a/checkins.csv", bytes: 1, sha256: "a")
            try s.insert(checkin("k2", workout: "w", at: 10), file: g, line: 9)   // same instant as k1: a/ sorts first
        }
        let facts = try checkins(warehouse)
        let duplicateOf = Dictionary(uniqueKeysWithValues: facts.map { ($0.id, $0.duplicateOf ?? "-") })
        #expect(duplicateOf == ["k2": "-", "k1": "k2", "k3": "k2", "k4": "-"])
    }
}

/// A warehouse made by a version before the check-in log (schema v3) is upgraded.
@Suite("Upgrading to the check-in log")
struct CheckinLogUpgradeTests {
    @Test func checkinFilesOfAV3WarehouseAreUnloadedSoTheyLoadAgain() throws {
        let path = temporaryWarehousePath()
        do {
            let queue = try DatabaseQueue(path: path)
            try WarehouseSchema.migrator.migrate(queue, upTo: "v3: swipes and subscriptions")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO input_file (id, path, display_path, dataset, table_name, bytes, sha256, load_seq, rows_read, rows_rejected)
                    VALUES (1, '/d/checkins/checkins.csv', 'checkins/checkins.csv', 'checkins', 'checkins', 10, 'x', 1, 2, 1),
                           (2, '/d/checkins/challenges.csv', 'checkins/challenges.csv', 'checkins', 'challenges', 10, 'y', 2, 1, 0);
                    INSERT INTO checkin (id, group_id, challenge_id, user_id, display_name, minutes, created_at, file_id, line)
                    VALUES ('k1', 'g1', 'ch1', 'ana', 'Ana', 45, 0, 1, 2);
                    INSERT INTO ingest_reject (file_id, line, record_id, reason) VALUES (1, 3, 'k1', 'duplicate id in this file');
                    INSERT INTO challenge (id, group_id, name, start_date, end_date, file_id, line)
                    VALUES ('ch1', 'g1', 'Outubro', '2026-10-01', '2026-10-31', 2, 2);
                    """)
            }
        }
        let warehouse = try Warehouse(path: path)
        try warehouse.read { (r: WarehouseReader) throws in
            #expect(try r.inputFiles().map(\.displayPath) == ["checkins/challenges.csv"])
            #expect(try r.ingestRejects().isEmpty)
            #expect(try r.count("challenge") == 1)
            #expect(try r.count("checkin_row") == 0)
            #expect(try r.count("checkin_winner") == 0)
            #expect(try Bool.fetchOne(r.db, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'checkin'") == false)
        }
        #expect(try warehouse.integrityCheck() == "ok")
    }
}
