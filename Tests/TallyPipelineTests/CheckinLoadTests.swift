import Foundation
import GRDB
import Testing
import TallyCore
import TallyIngest
@testable import TallyWarehouse
@testable import TallyPipeline

/// Loading `checkins/checkins` through the append-only log keeps what the
/// keyed upsert did: a repeated id in a file is rejected with its line, a
/// later file replaces a row, and a warehouse from before the log reloads.
@Suite("Check-ins through the log, end to end", .serialized)
struct CheckinLoadTests {
    let fitness = FitnessPipelineTests()

    func append(_ line: String, to url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((line + "\n").utf8))
    }

    func inputCounts(_ out: URL) throws -> [String: [Int]] {
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as! [String: Any]
        var counts: [String: [Int]] = [:]
        for i in manifest["inputs"] as! [[String: Any]] {
            counts[i["path"] as! String] = ["rowsRead", "rowsUsed", "rowsRejected", "rowsSuperseded"].map { i[$0] as! Int }
        }
        return counts
    }

    @Test func aRepeatedIdIsRejectedWithItsLineAndALaterFileReplacesARow() throws {
        let data = try fitness.dataFolder()
        let later = try temporaryFolder("fitness-later")
        let out = try temporaryFolder("fitness-log")
        defer { for u in [data, later, out] { try? FileManager.default.removeItem(at: u) } }
        // Line 16 repeats k1's id (another user and workout): the first row is kept.
        try append(#"{"id":"k1","groupId":"g1","challengeId":"ch1","userId":"bia","displayName":"Bia","checkInPhotoURL":"https://p/x.jpg","workoutEntryId":"w-x","workoutDurationMinutes":300,"createdAt":"2026-10-29T10:00:00-03:00"}"#,
                   to: data.appendingPathComponent("checkins/checkins.ndjson"))
        _ = try fitness.run(data, out: out)
        let rejects = try fitness.csv(out.appendingPathComponent("rejects.csv")).filter { $0.first == "checkins" }
        #expect(rejects.contains(["checkins", "checkins/checkins.ndjson", "16", "k1", "duplicate id in this file (the first row is kept)",
                                  "id_repeated"]))
        #expect(try inputCounts(out)["checkins/checkins.ndjson"] == [16, 9, 7, 0])
        let ana = try fitness.csv(out.appendingPathComponent("leaderboards/leaderboard.csv")).first { $0[0] == "ch1" && $0[4] == "ana" }
        #expect(ana?[6] == "3")

        // Another data folder, loaded later into the same warehouse, has a new version of caio's k8 (120 minutes).
        try FileManager.default.createDirectory(at: later.appendingPathComponent("checkins"), withIntermediateDirectories: true)
        try Data("""
            id,groupId,challengeId,userId,displayName,checkInPhotoURL,workoutEntryId,workoutDurationMinutes,createdAt
            k8,g1,ch1,caio,Caio,https://p/k8.jpg,w-k8,120,2026-10-19T10:00:00-03:00

            """.utf8).write(to: later.appendingPathComponent("checkins/checkins.csv"))
        _ = try fitness.run(later, out: out)
        let caio = try fitness.csv(out.appendingPathComponent("leaderboards/leaderboard.csv")).first { $0[0] == "ch1" && $0[4] == "caio" }
        #expect(caio?[7] == "120")
        let counts = try inputCounts(out)
        #expect(counts["checkins/checkins.ndjson"] == [16, 8, 7, 1])
        #expect(counts["checkins/checkins.csv"] == [1, 1, 0, 0])
    }

    @Test func aWarehouseFromBeforeTheLogReloadsItsCheckins() throws {
        let data = try fitness.dataFolder()
        let fresh = try temporaryFolder("fitness-fresh")
        let upgraded = try temporaryFolder("fitness-upgraded")
        defer { for u in [data, fresh, upgraded] { try? FileManager.default.removeItem(at: u) } }
        _ = try fitness.run(data, out: fresh)

        // A v3 warehouse that has the (unchanged) check-ins file loaded, with a row it no longer has.
        let file = data.appendingPathComponent("checkins/checkins.ndjson")
        let (bytes, sha) = try FileFingerprint.of(url: file)
        do {
            let queue = try DatabaseQueue(path: upgraded.appendingPathComponent("tally.sqlite").path)
            try WarehouseSchema.migrator.migrate(queue, upTo: "v3: swipes and subscriptions")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO input_file (id, path, display_path, dataset, table_name, bytes, sha256, load_seq, rows_read)
                    VALUES (1, ?, 'checkins/checkins.ndjson', 'checkins', 'checkins', ?, ?, 1, 1);
                    INSERT INTO checkin (id, group_id, challenge_id, user_id, display_name, photo_url, minutes, created_at, file_id, line)
                    VALUES ('stale', 'g1', 'ch1', 'zeca', 'Zeca', 'https://p/z.jpg', 60, 1792000000000000, 1, 2);
                    """, arguments: [file.standardizedFileURL.path, bytes, sha])
            }
        }
        let outcome = try fitness.run(data, out: upgraded)
        #expect(outcome.ingest?.files.first { $0.path == "checkins/checkins.ndjson" }?.loaded == true)
        try expectSameReports(fresh, upgraded)
    }
}
