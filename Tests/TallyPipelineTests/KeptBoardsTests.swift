import Foundation
import GRDB
import Testing
import TallyCore
@testable import TallyPipeline
import TallyWarehouse

/// A run takes a settled board kept by an earlier run (``KeptBoards``)
/// instead of reading its check-ins again, and its leaderboards equal a
/// from-scratch run's whatever changed in between: each case below is one
/// way a kept board stops holding.
///
/// Each case loads `sample-data/` (month one, a run whose settled boards are
/// kept), then a second folder (month two, a run into the same warehouse),
/// and compares that run's leaderboards and rejects with a run over the same
/// two folders into a warehouse that keeps nothing.
@Suite("Kept boards", .serialized)
struct KeptBoardsTests {
    let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))
    let fm = FileManager.default
    static let period = YearMonth("2026-10")!
    /// Settled on 31 October: ended on 12 June and on 14 September.
    static let settled = ["2q9e7NqYGJEZxYTM8vkP", "5rgzZANC2iFXesqI1IHd"]
    static let active = "iwNRCFGq01ngjccgBnzu"

    struct Setting {
        var config: String?
        var asOf: LocalDate?
    }

    func request(_ data: URL, out: URL, db: URL, _ setting: Setting = .init()) -> RunRequest {
        var request = RunRequest(dataDirectory: data, outDirectory: out, period: Self.period, databasePath: db.path, reproducible: true)
        if let config = setting.config { request.configText = (file: "tally.yml", text: config) }
        request.asOf = setting.asOf
        return request
    }

    /// A copy of the first check-in of `challenge` in `sample-data/`, as a new check-in `id` on `createdAt`.
    /// A second month's folder under `work` whose one file is a new check-in
    /// (`id`) of the still-running challenge, on 2026-10-28.
    func monthWithActiveCheckin(_ work: URL, id: String) throws -> URL {
        try secondMonthFolder(work, ["checkins/checkins.ndjson": [
            try checkin(of: Self.active, id: id, createdAt: "2026-10-28T10:00:00-03:00"),
        ]])
    }

    func checkin(of challenge: String, id: String, createdAt: String) throws -> String {
        let line = try #require(try sampleLines("checkins/checkins.ndjson").first { $0.contains("\"challengeId\":\"\(challenge)\"") })
        var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        object["id"] = id
        object["workoutEntryId"] = "W-" + id
        object["createdAt"] = createdAt
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Month one then `second` into one warehouse, with a run each (`first`'s then `then`'s setting);
    /// the same folders into a warehouse that keeps nothing (month one only loaded); both runs'
    /// leaderboards and rejects compared. Returns the first warehouse's kept set and check-in changes.
    @discardableResult
    func compare(_ work: URL, second: URL, first: Setting = .init(), then: Setting = .init(),
                 between: (URL) throws -> Void = { _ in },
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> (KeyStateSet?, KeyChanges) {
        let sampleData = repositoryRoot.appendingPathComponent("sample-data")
        let kept = work.appendingPathComponent("kept.sqlite")
        _ = try runner.run(request(sampleData, out: work.appendingPathComponent("one"), db: kept, first))
        #expect(try Warehouse(path: kept.path).read { try $0.keyStates(family: KeptBoards.family) } != nil,
                "month one keeps its settled boards", sourceLocation: sourceLocation)
        try between(kept)
        _ = try runner.run(request(second, out: work.appendingPathComponent("two"), db: kept, then))

        let fresh = work.appendingPathComponent("fresh.sqlite")
        _ = try IngestStage(logger: .init(label: "test"), progress: Progress(mode: .silent))
            .run(dataDirectory: sampleData, warehouse: try Warehouse(path: fresh.path))
        _ = try runner.run(request(second, out: work.appendingPathComponent("scratch"), db: fresh, then))

        for path in try reportFiles(work.appendingPathComponent("scratch"))
        where path.hasPrefix("leaderboards/") || path == "rejects.csv" {
            let expected = try Data(contentsOf: work.appendingPathComponent("scratch/\(path)"))
            let actual = try? Data(contentsOf: work.appendingPathComponent("two/\(path)"))
            #expect(actual == expected, "\(path) differs from the from-scratch run's", sourceLocation: sourceLocation)
        }
        return try Warehouse(path: kept.path).read { (try $0.keyStates(family: KeptBoards.family), try $0.checkinChanges()) }
    }

    @Test("check-ins of an active challenge only: the settled boards are taken as kept")
    func activeOnly() throws {
        let work = try temporaryFolder("kept-active")
        defer { try? fm.removeItem(at: work) }
        let second = try monthWithActiveCheckin(work, id: "kept-new-1")
        let (set, changes) = try compare(work, second: second)
        let states = try #require(set).states
        for key in Self.settled {
            let state = try #require(states[key])
            #expect(state.seq < changes.seq, "\(key) is taken as kept, not computed again")
        }
        #expect(states[Self.active] == nil)   // still running: never kept
    }

    @Test("a late check-in of a settled challenge: its board is computed again")
    func lateCheckin() throws {
        let work = try temporaryFolder("kept-late")
        defer { try? fm.removeItem(at: work) }
        let second = try secondMonthFolder(work, ["checkins/checkins.ndjson": [
            try checkin(of: Self.settled[0], id: "kept-late-1", createdAt: "2026-06-01T10:00:00-03:00"),
        ]])
        let (set, changes) = try compare(work, second: second)
        let states = try #require(set).states
        #expect(states[Self.settled[0]]?.seq == changes.seq)
        #expect(try #require(states[Self.settled[1]]).seq < changes.seq)
    }

    @Test("a check-in after the run's day for a settled challenge: computed again, and not kept while it is ahead")
    func checkinAfterTheDay() throws {
        let work = try temporaryFolder("kept-ahead")
        defer { try? fm.removeItem(at: work) }
        let second = try secondMonthFolder(work, ["checkins/checkins.ndjson": [
            try checkin(of: Self.settled[1], id: "kept-ahead-1", createdAt: "2026-11-20T10:00:00-03:00"),
        ]])
        let (set, _) = try compare(work, second: second)
        #expect(try #require(set).states[Self.settled[1]] == nil)
    }

    @Test("a membership of a settled challenge's group changed: its board is computed again")
    func membershipChanged() throws {
        let work = try temporaryFolder("kept-member")
        defer { try? fm.removeItem(at: work) }
        var members = try sampleLines("checkins/members.ndjson")
        let index = try #require(members.firstIndex { $0.contains("\"groupId\":\"KdXHIYl5CVKGtWK8PyYQ\"") && $0.contains("joinedAt") })
        // The member leaves the group before the challenge began: their check-ins stop counting.
        var object = try #require(try JSONSerialization.jsonObject(with: Data(members[index].utf8)) as? [String: Any])
        object["leftAt"] = "2026-03-01T00:00:00.000Z"
        object["joinedAt"] = "2026-01-01T00:00:00.000Z"
        members[index] = String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        let second = try secondMonthFolder(work, ["checkins/members.ndjson": members])
        let (set, changes) = try compare(work, second: second)
        #expect(set?.states[Self.settled[0]]?.seq == changes.seq)
    }

    @Test("a settled challenge's dates changed: its board is computed again")
    func challengeChanged() throws {
        let work = try temporaryFolder("kept-challenge")
        defer { try? fm.removeItem(at: work) }
        let challenges = try sampleLines("checkins/challenges.ndjson").map {
            $0.contains(Self.settled[1]) ? $0.replacingOccurrences(of: "\"endDate\":\"2026-09-14\"", with: "\"endDate\":\"2026-08-20\"") : $0
        }
        #expect(challenges != (try sampleLines("checkins/challenges.ndjson")))
        let second = try secondMonthFolder(work, ["checkins/challenges.ndjson": challenges])
        let (set, changes) = try compare(work, second: second)
        #expect(set?.states[Self.settled[1]]?.seq == changes.seq)
    }

    @Test("other leaderboard settings or time zone: nothing kept is taken, and the set is kept anew")
    func settingsChanged() throws {
        let sampleConfig = try String(contentsOf: repositoryRoot.appendingPathComponent("sample-data/tally.yml"), encoding: .utf8)
        for (name, changed) in [("minutes", sampleConfig.replacingOccurrences(of: "minimumWorkoutMinutes: 30", with: "minimumWorkoutMinutes: 40")),
                                ("zone", sampleConfig.replacingOccurrences(of: "timezone: America/Sao_Paulo", with: "timezone: Europe/Lisbon"))] {
            #expect(changed != sampleConfig)
            let work = try temporaryFolder("kept-settings-\(name)")
            defer { try? fm.removeItem(at: work) }
            let second = try monthWithActiveCheckin(work, id: "kept-new-2")
            let (set, changes) = try compare(work, second: second, first: Setting(config: sampleConfig), then: Setting(config: changed))
            for key in Self.settled { #expect(set?.states[key]?.seq == changes.seq, "\(name): \(key) computed again") }
        }
    }

    @Test("boards kept by another build of tally: nothing kept is taken")
    func anotherBuild() throws {
        let work = try temporaryFolder("kept-build")
        defer { try? fm.removeItem(at: work) }
        let second = try monthWithActiveCheckin(work, id: "kept-new-5")
        let (set, changes) = try compare(work, second: second, between: { try keptByAnotherBuild($0) })
        for key in Self.settled { #expect(set?.states[key]?.seq == changes.seq, "\(key) computed again") }
    }

    @Test("an earlier as-of day than the kept boards': they are computed again")
    func earlierDay() throws {
        let work = try temporaryFolder("kept-earlier")
        defer { try? fm.removeItem(at: work) }
        let second = try monthWithActiveCheckin(work, id: "kept-new-3")
        let (set, changes) = try compare(work, second: second, then: Setting(asOf: LocalDate(year: 2026, month: 10, day: 25)))
        #expect(set?.states[Self.settled[0]]?.seq == changes.seq)
    }

    @Test("a kept board that cannot be read back (a damaged warehouse): computed again")
    func damagedState() throws {
        let work = try temporaryFolder("kept-damaged")
        defer { try? fm.removeItem(at: work) }
        let second = try monthWithActiveCheckin(work, id: "kept-new-4")
        // After month one, the kept board's result is damaged (its day is still readable).
        let (set, changes) = try compare(work, second: second, between: { db in
            try DatabaseQueue(path: db.path).write { db in
                try db.execute(sql: "UPDATE key_state SET state = X'323032362D31302D33310A00' WHERE key = ?",
                               arguments: [Self.settled[0]])
            }
        })
        #expect(set?.states[Self.settled[0]]?.seq == changes.seq)
    }

    @Test("a check-in file delivered again, changed: the check-ins are refreshed from scratch, nothing kept is taken")
    func fileReplaced() throws {
        let work = try temporaryFolder("kept-replaced")
        defer { try? fm.removeItem(at: work) }
        // Month one's folder, copied, then its check-ins file changed in place.
        let data = work.appendingPathComponent("data")
        try fm.copyItem(at: repositoryRoot.appendingPathComponent("sample-data"), to: data)
        let db = work.appendingPathComponent("kept.sqlite")
        _ = try runner.run(request(data, out: work.appendingPathComponent("one"), db: db))
        var lines = try sampleLines("checkins/checkins.ndjson")
        lines.removeAll { $0.contains("\"challengeId\":\"\(Self.settled[0])\"") && $0.contains("2026-04-19") }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: data.appendingPathComponent("checkins/checkins.ndjson"))
        _ = try runner.run(request(data, out: work.appendingPathComponent("two"), db: db))
        _ = try runner.run(request(data, out: work.appendingPathComponent("scratch"), db: work.appendingPathComponent("fresh.sqlite")))
        for path in try reportFiles(work.appendingPathComponent("scratch")) where path.hasPrefix("leaderboards/") {
            #expect(try Data(contentsOf: work.appendingPathComponent("two/\(path)"))
                    == Data(contentsOf: work.appendingPathComponent("scratch/\(path)")), "\(path)")
        }
        let (set, changes) = try Warehouse(path: db.path).read { (try $0.keyStates(family: KeptBoards.family), try $0.checkinChanges()) }
        #expect(changes.allSince == changes.seq)
        for key in Self.settled { #expect(set?.states[key]?.seq == changes.seq) }
    }
}
