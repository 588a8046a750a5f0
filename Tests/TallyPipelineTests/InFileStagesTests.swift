import Foundation
import Testing
import TallyCore
import TallyIngest
@testable import TallyPipeline
import TallyWire

/// The stages whose every input comes from one file run in that file's
/// decode worker: for a table's one file, its rows stage, and the stages
/// that take only that table's rows (the swipes' pairs and days, …). The
/// worker sends on what those stages would have sent, and no line for them.
/// A table in two parts, and the subscription events beside App Store
/// reports, still go through the engine, where the rows of one key meet.
@Suite("Dataflow: stages run in their file's decode worker", .serialized,
       .enabled(if: FileManager.default.isExecutableFile(atPath: repositoryRoot.appendingPathComponent(".build/debug/tally").path)))
struct InFileStagesTests {
    static func plan(_ data: URL, in work: URL) throws -> (url: URL, plan: DataflowProcesses.Plan) {
        let url = work.appendingPathComponent("plan.json")
        let planned = try DataflowProcessTests.tally(["plan", "--data", data.path, "--period", "2026-10",
                                                      "--out", work.appendingPathComponent("reports").path], in: work)
        #expect(planned.code == 0, "\(planned.err)")
        try planned.out.write(to: url)
        return (url, try JSONDecoder().decode(DataflowProcesses.Plan.self, from: planned.out))
    }

    /// The output lines of `tally worker decode` for file `path`'s task, a line per record.
    static func decoded(_ path: String, plan: (url: URL, plan: DataflowProcesses.Plan), in work: URL) throws -> [String] {
        let seq = try #require(plan.plan.files.firstIndex(of: path)) + 1
        let ran = try DataflowProcessTests.tally(["worker", "decode", "--plan", plan.url.path],
                                                 input: Data((plan.plan.tasks[seq - 1] + "\n").utf8), in: work)
        #expect(ran.code == 0, "\(ran.err)")
        return try DataflowProcessTests.recordLines(ran.out)
    }

    @Test("which stages run in a file's decode worker: a table's one file's, the events' with the App Store reports, the activity's with the Apple Health exports, not a table in parts'")
    func whichStagesRunInTheFile() throws {
        let work = try temporaryFolder("in-file-which")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = try copyOfSampleData(in: work)
        try PartFoldersTests.split(data, "expenses/expenses.csv", stem: "expenses", into: 2)
        let flow = try DataflowProcesses.flowPlan(try Self.plan(data, in: work).plan)
        let local = Dictionary(uniqueKeysWithValues: flow.files.indices.map { (flow.files[$0].relativePath, flow.stagesInGroup(of: $0 + 1)) })
        #expect(local["expenses/couples.csv"] == [.rows])
        #expect(local["swipes/swipes.ndjson.gz"] == [.rows, .swipePairs, .swipeDays])
        #expect(local["checkins/checkins.ndjson"] == [.rows, .workouts])
        #expect(local["expenses/expenses/part-00000.csv"] == [], "a table in parts: a key's rows may be in both")
        #expect(local["expenses/expenses/part-00001.csv"] == [])
        #expect(local["subscriptions/events.csv.gz"] == [.rows, .subscribers], "decoded with the App Store reports")
        #expect(local["subscriptions/Subscriber_Report.txt"] == [.rows, .subscribers])
        let events = try #require(flow.files.firstIndex { $0.relativePath == "subscriptions/events.csv.gz" }) + 1
        #expect(flow.group(of: events).map { flow.files[$0 - 1].relativePath }
                == ["subscriptions/events.csv.gz", "subscriptions/Subscriber_Report.txt", "subscriptions/Subscription_Event_Report.txt"])
        let exports = local.filter { $0.key.hasPrefix("health/") && !$0.key.hasSuffix(".csv") }
        #expect(!exports.isEmpty && exports.values.allSatisfy { $0 == [.rows, .days, .users] },
                "the Apple Health exports are decoded with the activity's file: its users' days are theirs too")
        #expect(local["health/activity.csv"] == [.rows, .days, .users])
        let activity = try #require(flow.files.firstIndex { $0.relativePath == "health/activity.csv" }) + 1
        #expect(flow.group(of: activity).map { flow.files[$0 - 1].relativePath } == ["health/activity.csv"] + exports.keys.sorted())
    }

    @Test("the activity in parts: each part and each Apple Health export is a task of its own, its days met in the engine")
    func activityInPartsIsNotAGroup() throws {
        let work = try temporaryFolder("in-file-activity-parts")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = try copyOfSampleData(in: work)
        try PartFoldersTests.split(data, "health/activity.csv", stem: "activity", into: 2)
        let flow = try DataflowProcesses.flowPlan(try Self.plan(data, in: work).plan)
        for seq in flow.files.indices.map({ $0 + 1 }) where flow.files[seq - 1].relativePath.hasPrefix("health/") {
            #expect(flow.group(of: seq) == [seq], "\(flow.files[seq - 1].relativePath)")
            #expect(flow.stagesInGroup(of: seq).isEmpty, "\(flow.files[seq - 1].relativePath)")
        }
    }

    @Test("a file whose rows stay in it sends what its stages send, and no line for them",
          arguments: ["expenses/expenses.csv", "swipes/swipes.ndjson.gz", "checkins/checkins.ndjson", "expenses/couples.csv"])
    func decodeRunsTheFileStages(path: String) throws {
        let work = try temporaryFolder("in-file-judged")
        defer { try? FileManager.default.removeItem(at: work) }
        let planned = try Self.plan(repositoryRoot.appendingPathComponent("sample-data"), in: work)
        let lines = try Self.decoded(path, plan: planned, in: work)
        #expect(!lines.contains { $0.hasPrefix("rows\t") })

        // What the file's stages make of its decoded rows, in process.
        let flow = try DataflowProcesses.flowPlan(planned.plan)
        let seq = try #require(planned.plan.files.firstIndex(of: path)) + 1
        #expect(flow.stagesInGroup(of: seq).first == .rows)
        var expected: [String] = []
        func line(_ dest: FlowStageName, _ key: [UInt8], _ record: FlowRecord) {
            var writer = WireWriter()
            FlowLines.append(stage: dest, key: key, record, to: &writer)
            expected.append(String(decoding: writer.bytes.dropLast(), as: UTF8.self))
        }
        // Each stage of the file's, in order, on its records grouped by key (a dictionary, not the worker's buckets).
        let local = flow.stagesInGroup(of: seq)
        var held: [FlowStageName: [[UInt8]: [FlowRecord]]] = [:]
        func route(_ dest: FlowStageName, _ key: [UInt8], _ record: FlowRecord) {
            if local.contains(dest) { held[dest, default: [:]][key, default: []].append(record) } else { line(dest, key, record) }
        }
        let read = try #require(try DecodeStage(plan: flow).read(file: seq, emit: route))
        #expect((held[.rows]?.count ?? 0) >= 20)
        for stage in local {
            let worker = try FlowWorker(stage: stage, plan: flow)
            for (key, records) in held[stage] ?? [:] { try worker.run(key: key, records, emit: route) }
            try worker.finish(emit: route)
        }
        line(.merge, FlowKeys.file(seq), .fileRead(read))
        #expect(lines.count == expected.count)
        #expect(lines.sorted() == expected.sorted())
        #expect(path != "expenses/expenses.csv" || lines.contains { $0.hasPrefix("merge\t") && $0.contains("\tsuperseded\t\(seq)\t") },
                "the superseded versions are counted against the file")
    }

    @Test("the swipes' one file sends only what their pairs and days send: partial results for the merge")
    func swipesRunTheirWholeChain() throws {
        let work = try temporaryFolder("in-file-swipes")
        defer { try? FileManager.default.removeItem(at: work) }
        let lines = try Self.decoded("swipes/swipes.ndjson.gz", plan: try Self.plan(repositoryRoot.appendingPathComponent("sample-data"), in: work),
                                     in: work)
        let destinations = Set(lines.map { String($0.prefix { $0 != "\t" }) })
        #expect(destinations == ["merge"], "\(destinations)")
        #expect(lines.count < 200, "partials and accounting, not one line per swipe: \(lines.count)")
    }

    @Test("the events' file and the App Store reports are one group, under one key: their subscribers leave as partial results")
    func eventsAndReportsAreOneGroup() throws {
        let work = try temporaryFolder("in-file-events")
        defer { try? FileManager.default.removeItem(at: work) }
        let planned = try Self.plan(repositoryRoot.appendingPathComponent("sample-data"), in: work)
        let paths = ["subscriptions/events.csv.gz", "subscriptions/Subscriber_Report.txt", "subscriptions/Subscription_Event_Report.txt"]
        let tasks = try paths.map { path in planned.plan.tasks[try #require(planned.plan.files.firstIndex(of: path))] }
        #expect(Set(tasks.map { $0.prefix { $0 != "\t" } }).count == 1, "one key for the group's tasks")
        let ran = try DataflowProcessTests.tally(["worker", "decode", "--plan", planned.url.path],
                                                 input: Data((tasks.sorted().joined(separator: "\n") + "\n").utf8), in: work)
        #expect(ran.code == 0, "\(ran.err)")
        let lines = DataflowProcessTests.lines(ran.out).map { String(decoding: $0, as: UTF8.self) }
        #expect(Set(lines.map { String($0.prefix { $0 != "\t" }) }) == ["merge"])
        #expect(lines.filter { $0.contains("\tfile-read\t") }.count == 3)
    }

    @Test("the parts of a table send their rows on to the rows stage, where a key's rows from both parts meet")
    func partsSendTheirRowsOn() throws {
        let work = try temporaryFolder("in-file-parts")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = try copyOfSampleData(in: work)
        try PartFoldersTests.split(data, "expenses/expenses.csv", stem: "expenses", into: 2)
        let lines = try Self.decoded("expenses/expenses/part-00000.csv", plan: try Self.plan(data, in: work), in: work)
        #expect(lines.contains { $0.hasPrefix("rows\t") })
        #expect(!lines.contains { $0.contains("\twinning-expense\t") })
    }
}
