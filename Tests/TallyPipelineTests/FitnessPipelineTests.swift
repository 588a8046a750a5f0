import Foundation
import Testing
import TallyCore
import TallyTestSupport
import TallyWarehouse
@testable import TallyPipeline

/// A small hand-written data folder through ingest, leaderboards and activity.
@Suite("Fitness end to end", .serialized)
struct FitnessPipelineTests {
    let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))

    /// challenges, members, check-ins (one bad row of each kind), activity rows and an Apple Health export.
    func dataFolder() throws -> URL {
        let data = try temporaryFolder("fitness-data")
        let fm = FileManager.default
        for folder in ["checkins", "health/u9"] {
            try fm.createDirectory(at: data.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        func write(_ path: String, _ text: String) throws {
            try Data(text.utf8).write(to: data.appendingPathComponent(path))
        }
        try write("checkins/challenges.ndjson", """
            {"id":"ch1","groupId":"g1","name":"Outubro Ativo","startDate":"2026-10-01","endDate":"2026-10-31"}
            {"id":"ch2","groupId":"g1","name":"Sprint","startDate":"2026-10-28","endDate":"2026-11-10"}
            {"id":"ch3","groupId":"g1","name":"Futuro","startDate":"2026-11-05","endDate":"2026-11-30"}

            """)
        try write("checkins/members.csv", """
            groupId,userId,joinedAt,leftAt
            g1,ana,2026-09-01T00:00:00Z,
            g1,bia,2026-09-01T00:00:00Z,
            g1,caio,2026-09-01T00:00:00Z,2026-10-20T00:00:00Z
            g1,duda,2026-10-24T00:00:00Z,

            """)
        func c(_ id: String, _ user: String, _ at: String, minutes: Int = 45, photo: Bool = true, workout: String? = nil,
               challenge: String = "ch1") -> String {
            let p = photo ? "\"https://p/\(id).jpg\"" : "null"
            return "{\"id\":\"\(id)\",\"groupId\":\"g1\",\"challengeId\":\"\(challenge)\",\"userId\":\"\(user)\",\"displayName\":\"\(user.capitalized)\",\"checkInPhotoURL\":\(p),\"workoutEntryId\":\"\(workout ?? "w-" + id)\",\"workoutDurationMinutes\":\(minutes),\"createdAt\":\"\(at)\"}"
        }
        try write("checkins/checkins.ndjson", [
            c("k1", "ana", "2026-10-20T10:00:00-03:00"), c("k2", "ana", "2026-10-21T10:00:00-03:00"),
            c("k3", "ana", "2026-10-30T10:00:00-03:00"),
            c("k4", "bia", "2026-10-22T10:00:00-03:00", minutes: 60), c("k5", "bia", "2026-10-23T10:00:00-03:00", minutes: 60),
            c("k6", "duda", "2026-10-25T10:00:00-03:00", minutes: 50),
            c("k7", "duda", "2026-10-26T10:00:00-03:00", minutes: 50),
            c("k8", "caio", "2026-10-19T10:00:00-03:00", minutes: 90),
            // Each rule broken once (lines 9–13), one unknown challenge (14), one in a challenge not yet started (15).
            c("bad-photo", "ana", "2026-10-22T11:00:00-03:00", photo: false),
            c("bad-short", "bia", "2026-10-24T11:00:00-03:00", minutes: 29),
            c("bad-member", "caio", "2026-10-20T00:00:00Z"),
            c("bad-dates", "ana", "2026-10-01T02:59:00Z"),
            c("bad-dup", "bia", "2026-10-23T10:05:00-03:00", workout: "w-k5"),
            c("bad-challenge", "ana", "2026-10-23T10:00:00-03:00", challenge: "nope"),
            c("k9", "ana", "2026-11-06T10:00:00-03:00", challenge: "ch3"),
        ].joined(separator: "\n") + "\n")
        try write("health/activity.csv", """
            userId,date,steps,activeCalories,walkingDistanceKm
            u1,2026-10-01,12000,600,6
            u1,2026-10-02,5000,250,2.5
            u1,2026-10-02,-40,250,2.5
            u1,2026-10-01,8000,100,1
            u1,2026-09-30,30000,900,20
            u9,2026-10-05,1,1,1

            """)
        // The phone and the watch saw the same walks; one walk starts 23:30 in São Paulo (02:30 UTC the next day).
        func r(_ type: String, _ source: String, _ unit: String, _ start: String, _ value: String) -> String {
            " <Record type=\"HKQuantityTypeIdentifier\(type)\" sourceName=\"\(source)\" unit=\"\(unit)\" startDate=\"\(start)\" endDate=\"\(start)\" value=\"\(value)\"/>"
        }
        try write("health/u9/export.xml", """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ATTLIST HealthData
              locale CDATA #REQUIRED
            >
            ]>
            <HealthData locale="pt_BR">
            \(r("StepCount", "iPhone", "count", "2026-10-05 09:00:00 -0300", "6000"))
            \(r("StepCount", "Watch", "count", "2026-10-05 09:00:00 -0300", "5800"))
            \(r("StepCount", "iPhone", "count", "2026-10-05 23:30:00 -0300", "1000"))
            \(r("StepCount", "Watch", "count", "2026-10-06 02:40:00 +0000", "900"))
            \(r("ActiveEnergyBurned", "Watch", "kJ", "2026-10-05 09:00:00 -0300", "1046"))
            \(r("DistanceWalkingRunning", "iPhone", "mi", "2026-10-05 09:00:00 -0300", "2"))
            \(r("DistanceWalkingRunning", "Strava", "m", "2026-10-05 09:00:00 -0300", "3500"))
            \(r("StepCount", "iPhone", "steps", "2026-10-05 09:00:00 -0300", "10"))
            </HealthData>

            """)
        return data
    }

    func run(_ data: URL, out: URL, asOf: LocalDate? = nil) throws -> TallyRunner.Outcome {
        try runner.run(RunRequest(dataDirectory: data, outDirectory: out, period: YearMonth("2026-10")!,
                                  databasePath: out.appendingPathComponent("tally.sqlite").path, reproducible: true,
                                  asOf: asOf))
    }

    func csv(_ url: URL) throws -> [[String]] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test func leaderboardsRejectsAndAccounting() throws {
        let data = try dataFolder()
        let out = try temporaryFolder("fitness-out")
        defer { try? FileManager.default.removeItem(at: data); try? FileManager.default.removeItem(at: out) }
        _ = try run(data, out: out)

        let board = try csv(out.appendingPathComponent("leaderboards/leaderboard.csv"))
        #expect(board[0] == ["challengeId", "groupId", "asOf", "rank", "userId", "displayName", "checkins", "minutes",
                             "rankChange", "newcomer", "currentStreak", "bestStreak"])
        let ch1 = board.dropFirst().filter { $0[0] == "ch1" }
        // ana 3 (135 min); bia 2 (120) and duda 2 (100): tie on points broken by minutes; caio 1.
        #expect(ch1.map { $0[4] } == ["ana", "bia", "duda", "caio"])
        #expect(ch1.map { $0[3] } == ["1", "2", "3", "4"])
        #expect(ch1.map { $0[6] } == ["3", "2", "2", "1"])
        #expect(ch1.map { $0[7] } == ["135", "120", "100", "90"])
        // As of Oct 24: bia 2 (120) first, ana 2 (90) second, caio third; duda new since.
        #expect(ch1.map { $0[8] } == ["1", "-1", "", "-1"])
        #expect(ch1.map { $0[9] } == ["false", "false", "true", "false"])
        #expect(ch1.first!.suffix(2) == ["1", "2"])   // ana: Oct 30 (alive on Oct 31), best Oct 20–21
        // ch2 started Oct 28 with no check-ins: an empty board; ch3 starts after the as-of day: not listed.
        #expect(!board.contains { $0[0] == "ch3" })
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("leaderboards/ch2.txt").path))

        let rejects = try csv(out.appendingPathComponent("rejects.csv")).filter { $0[0] == "checkins" }
        let reasons = Dictionary(uniqueKeysWithValues: rejects.map { ($0[3], $0[4]) })
        #expect(reasons["bad-photo"] == "check-in without a photo (checkInPhotoURL is empty)")
        #expect(reasons["bad-short"] == "workout of 29 minutes is under the minimum of 30")
        #expect(reasons["bad-member"] == "user 'caio' was not a member of group 'g1' at 2026-10-20T00:00:00Z")
        #expect(reasons["bad-dates"] == "check-in on 2026-09-30 is outside the challenge's dates 2026-10-01…2026-10-31")
        #expect(reasons["bad-dup"] == "duplicate check-in of workout 'w-k5' (first checked in by 'k5')")
        #expect(reasons["bad-challenge"] == "check-in for unknown challenge 'nope'")
        #expect(rejects.map { $0[2] } == ["9", "10", "11", "12", "13", "14"])

        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as! [String: Any]
        let inputs = (manifest["inputs"] as! [[String: Any]])
        func counts(_ path: String) -> [Int] {
            let i = inputs.first { $0["path"] as? String == path }!
            return ["rowsRead", "rowsUsed", "rowsRejected", "rowsSuperseded"].map { i[$0] as! Int }
        }
        #expect(counts("checkins/checkins.ndjson") == [15, 9, 6, 0])
        #expect(counts("health/activity.csv") == [6, 3, 1, 2])
        #expect(counts("health/u9/export.xml") == [8, 7, 1, 0])

    }

    @Test func asOfMovesTheBoard() throws {
        let data = try dataFolder()
        let out = try temporaryFolder("fitness-asof")
        defer { try? FileManager.default.removeItem(at: data); try? FileManager.default.removeItem(at: out) }
        _ = try run(data, out: out, asOf: LocalDate(year: 2026, month: 10, day: 24))
        let board = try csv(out.appendingPathComponent("leaderboards/leaderboard.csv")).dropFirst()
        #expect(board.map { $0[0] } == ["ch1", "ch1", "ch1"])
        #expect(board.map { $0[4] } == ["bia", "ana", "caio"])
        #expect(board.allSatisfy { $0[8] == "" && $0[9] == "true" })   // Oct 17: nobody had checked in yet
        // The same warehouse as of the period's last day: the board moves, nothing stored from the first run shows.
        _ = try run(data, out: out)
        let later = try csv(out.appendingPathComponent("leaderboards/leaderboard.csv")).dropFirst()
        #expect(later.map { $0[4] } == ["ana", "bia", "duda", "caio"])
    }

    @Test func activityScoresUseTheLastValidRowAndTheExportsPerSourceMaximum() throws {
        let data = try dataFolder()
        let out = try temporaryFolder("fitness-activity")
        defer { try? FileManager.default.removeItem(at: data); try? FileManager.default.removeItem(at: out) }
        _ = try run(data, out: out)
        let scores = try csv(out.appendingPathComponent("activity/scores.csv"))
        #expect(scores[0] == ["userId", "date", "steps", "activeCalories", "walkingDistanceKm", "score"])
        // Measures keep their input's precision (no trailing zeros); the score has 1 decimal.
        // u1: Oct 1's last row wins (8000 steps); Oct 2's rejected row does not override; Sep 30 is outside the month.
        #expect(scores[1] == ["u1", "2026-10-01", "8000", "100", "1", "44.0"])
        #expect(scores[2] == ["u1", "2026-10-02", "5000", "250", "2.5", "50.0"])
        // u9 from the export (it wins over the table row): steps max(6000+1000, 5800) on Oct 5; the 23:30 walk
        // and the 02:40 UTC watch record fall on Oct 5 and 5 local; 1046 kJ = 250 kcal; max(2 mi, 3.5 km) = 3.5 km.
        #expect(scores[3] == ["u9", "2026-10-05", "7000", "250", "3.5", "64.0"])
        #expect(scores.count == 4)
        let summary = try csv(out.appendingPathComponent("activity/summary.csv"))
        #expect(summary[1] == ["u1", "2026-10", "2", "47.0", "50.0", "0"])
        let text = try String(contentsOf: out.appendingPathComponent("activity/activity.txt"), encoding: .utf8)
        #expect(text.contains("u9"))

        let book = try XLSXReader(url: out.appendingPathComponent("activity/activity.xlsx"))
        #expect(book.sheetNames == ["Resumo", "Usuários", "Tendência 1–16", "Tendência 17–31", "Pontuações"])
        #expect(!book.chartPaths.isEmpty)
        #expect(try book.row("Pontuações", 4)[5]?.number == 64)
    }

    @Test func anotherReportTimeZoneMovesTheExportDaysWithoutAReload() throws {
        let data = try dataFolder()
        let out = try temporaryFolder("fitness-tz")
        let fresh = try temporaryFolder("fitness-tz-fresh")
        defer { for u in [data, out, fresh] { try? FileManager.default.removeItem(at: u) } }
        _ = try run(data, out: out)
        let first = try Data(contentsOf: out.appendingPathComponent("activity/scores.csv"))
        func tokyo(_ out: URL) throws -> TallyRunner.Outcome {
            try runner.run(RunRequest(dataDirectory: data, outDirectory: out, period: YearMonth("2026-10")!,
                                      databasePath: out.appendingPathComponent("tally.sqlite").path,
                                      timezone: "Asia/Tokyo", reproducible: true))
        }
        let moved = try tokyo(out)
        #expect(moved.ingest?.files.filter(\.loaded).map(\.path) == [])
        // In Tokyo the 23:30 São Paulo walk (02:30 UTC) is on Oct 6.
        let u9 = try csv(out.appendingPathComponent("activity/scores.csv")).filter { $0[0] == "u9" }
        #expect(u9.map { $0[1] } == ["2026-10-05", "2026-10-06"])
        #expect(u9.map { $0[2] } == ["6000", "1000"])
        // The same reports as a warehouse that loaded the data in Tokyo at once.
        _ = try tokyo(fresh)
        for path in ["activity/scores.csv", "activity/summary.csv", "activity/activity.txt", "rejects.csv"] {
            #expect(try Data(contentsOf: out.appendingPathComponent(path)) == Data(contentsOf: fresh.appendingPathComponent(path)), "\(path)")
        }
        // And back: the first zone's reports again, still without a reload.
        let back = try run(data, out: out)
        #expect(back.ingest?.files.filter(\.loaded).map(\.path) == [])
        #expect(try Data(contentsOf: out.appendingPathComponent("activity/scores.csv")) == first)
    }

    @Test func aReportsOnlyRunInAnotherTimeZoneMovesTheExportDaysToo() throws {
        let data = try dataFolder()
        let out = try temporaryFolder("fitness-report-tz")
        let fresh = try temporaryFolder("fitness-report-tz-fresh")
        defer { for u in [data, out, fresh] { try? FileManager.default.removeItem(at: u) } }
        let db = out.appendingPathComponent("tally.sqlite").path
        _ = try run(data, out: out)
        // `tally report --timezone Asia/Tokyo`: no data folder, the same warehouse.
        _ = try runner.run(RunRequest(dataDirectory: nil, outDirectory: out, period: YearMonth("2026-10")!,
                                      databasePath: db, timezone: "Asia/Tokyo", reproducible: true))
        _ = try runner.run(RunRequest(dataDirectory: data, outDirectory: fresh, period: YearMonth("2026-10")!,
                                      databasePath: fresh.appendingPathComponent("tally.sqlite").path,
                                      timezone: "Asia/Tokyo", reproducible: true))
        for path in ["activity/scores.csv", "activity/summary.csv", "activity/activity.txt"] {
            #expect(try Data(contentsOf: out.appendingPathComponent(path)) == Data(contentsOf: fresh.appendingPathComponent(path)), "\(path)")
        }
    }

    @Test func theLeaderboardWorkbookReadsBackAndRerunsAreByteIdentical() throws {
        let data = try dataFolder()
        let out = try temporaryFolder("fitness-book")
        let again = try temporaryFolder("fitness-again")
        defer { for u in [data, out, again] { try? FileManager.default.removeItem(at: u) } }
        _ = try run(data, out: out)
        let book = try XLSXReader(url: out.appendingPathComponent("leaderboards/leaderboards.xlsx"))
        #expect(book.sheetNames == ["Índice", "Outubro Ativo", "Sprint", "Check-ins não contados"])
        #expect(try book.strings("Índice", 2).prefix(2) == ["ch1", "Outubro Ativo"])
        #expect(try book.chartPaths(onSheet: "Outubro Ativo").count == 1)
        // The title, the progress, the points' definition (two lines) and a blank row come before the header.
        let first = try book.row("Outubro Ativo", 7)
        #expect(first[0]?.number == 1)
        #expect(first[1]?.number == 1)
        #expect(try book.numberFormat("Outubro Ativo", "B7") == "\"▲\"0;\"▼\"0;\"–\"")
        #expect(first[2]?.string == "Ana")
        #expect(try book.row("Outubro Ativo", 9)[1]?.string == "novo")
        let lines = try String(contentsOf: out.appendingPathComponent("leaderboards/ch1.txt"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(lines[0] == "Classificação: Outubro Ativo (ch1)")
        #expect(lines[2] == "Dia 31 de 31 · último dia")
        #expect(lines[3].hasPrefix("1. ▲1   Ana ") && lines[3].hasSuffix("3 pontos · 135 min"))
        #expect(lines[5].hasPrefix("3. novo Duda "))
        #expect(lines[6].hasPrefix("4. ▼1   Caio "))
        // Under the board: what a point is, the tie rule, then the check-ins that did not count.
        let pointsLine = try #require(lines.firstIndex { $0.hasPrefix("Pontos: ") })
        let uncountedLine = try #require(lines.firstIndex(of: "Check-ins que não contaram, por participante:"))
        #expect(pointsLine == 7 && uncountedLine == pointsLine + 4)
        let notes = lines[pointsLine..<uncountedLine].joined(separator: " ")
        #expect(notes.hasPrefix("Pontos: 1 ponto por check-in contado (no grupo do desafio, com foto, treino de pelo menos 30 min"))
        #expect(notes.hasSuffix("empatados listados pelo ID do usuário."))
        #expect(lines[(uncountedLine + 1)...].first == "  Ana: 2 — check-in sem foto (1), fora das datas do desafio (1)")
        _ = try run(data, out: again)
        try expectSameReports(out, again)
    }
}
