import Foundation
import Testing
import TallyCore
import TallyIngest
@testable import TallyPipeline
import TallyWire

/// A table kept as Parquet (`checkins/checkins/part-00000.parquet`): the
/// Spark job reads it and sends its columns and rows to the decode worker
/// as lines (the plan's `sources`), which reads them as it reads the same
/// rows exported as NDJSON; `tally run` refuses the folder, naming the table.
/// The Spark job's side is tested in spark/tests and scripts/spark-test.sh.
@Suite("Parquet tables: sources an engine reads", .serialized,
       .enabled(if: FileManager.default.isExecutableFile(atPath: repositoryRoot.appendingPathComponent(".build/debug/tally").path)))
struct ParquetSourceTests {
    static let tally = DataflowProcessTests.tally

    /// Three check-ins: two of sample-data's, then one whose `createdAt` has no offset (a reject on line 3).
    static func rows() throws -> [String] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("sample-data/checkins/checkins.ndjson"), encoding: .utf8)
        let sample = text.split(separator: "\n").prefix(2).map(String.init)
        let late = sample[1].replacingOccurrences(of: #""id":""#, with: #""id":"late-"#)
            .replacingOccurrences(of: #"-0[0-9]:00""#, with: #"""#, options: .regularExpression)
        #expect(late != sample[1])
        return sample + [late]
    }

    /// A copy of sample-data whose check-ins are `rows`: as `checkins/checkins.ndjson`, or, `asParquet`,
    /// as a folder holding `part-00000.parquet` (bytes no reader of tally's opens) and Spark's `_SUCCESS`.
    static func data(in work: URL, rows: [String], asParquet: Bool) throws -> URL {
        let data = try copyOfSampleData(in: work)
        let ndjson = data.appendingPathComponent("checkins/checkins.ndjson")
        if asParquet {
            try FileManager.default.removeItem(at: ndjson)
            let folder = data.appendingPathComponent("checkins/checkins")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("PAR1 not read by tally PAR1".utf8).write(to: folder.appendingPathComponent("part-00000.parquet"))
            try Data().write(to: folder.appendingPathComponent("_SUCCESS"))
        } else {
            try Data(rows.map { $0 + "\n" }.joined().utf8).write(to: ndjson)
        }
        return data
    }

    /// The plan of `data`, written to `work/plan.json`.
    static func plan(_ data: URL, in work: URL) throws -> (url: URL, plan: DataflowProcesses.Plan) {
        let url = work.appendingPathComponent("plan.json")
        let planned = try tally(["plan", "--data", data.path, "--period", "2026-10", "--out", work.appendingPathComponent("reports").path], Data(), work)
        #expect(planned.code == 0, "\(planned.err)")
        try planned.out.write(to: url)
        return (url, try JSONDecoder().decode(DataflowProcesses.Plan.self, from: planned.out))
    }

    /// The plan of a copy of sample-data whose check-ins are one Parquet part: the plan, its one source and that part's task.
    static func parquetPlan(in work: URL) throws
        -> (url: URL, plan: DataflowProcesses.Plan, source: DataflowProcesses.Plan.Source, task: String) {
        let (url, plan) = try Self.plan(try Self.data(in: work, rows: [], asParquet: true), in: work)
        let source = try #require(plan.sources?.first)
        let seq = try #require(plan.files.firstIndex(of: source.path)) + 1
        return (url, plan, source, plan.tasks[seq - 1])
    }

    /// The lines the Spark job sends for `source`: its columns, its rows (each JSON object's `\` doubled), as a driver writes them.
    static func sourceLines(_ source: DataflowProcesses.Plan.Source, columns: [String], rows: [String]) -> [String] {
        let escape = { (text: String) in String(decoding: WireEscaping.escaped(Array(text.utf8)), as: UTF8.self) }
        return [source.columnsLine + ([String(columns.count)] + columns.map(escape)).joined(separator: "\t")]
            + rows.enumerated().map { source.rowLine + String(format: "%019d", $0.offset) + "\t" + escape($0.element) }
    }

    /// The columns of NDJSON `rows`: every key, in the order first seen.
    static func columns(of rows: [String]) throws -> [String] {
        var names: [String] = []
        for row in rows {
            let object = try JSONSerialization.jsonObject(with: Data(row.utf8)) as! [String: Any]
            // JSONSerialization's dictionaries lose the key order: take it from the text.
            let keys = try NSRegularExpression(pattern: #""([A-Za-z]+)":"#).matches(in: row, range: NSRange(row.startIndex..., in: row))
                .map { String(row[Range($0.range(at: 1), in: row)!]) }.filter { object[$0] != nil }
            for key in keys where !names.contains(key) { names.append(key) }
        }
        return names
    }

    @Test("tally run and tally ingest refuse a Parquet table, naming it, and create nothing")
    func runRefusesParquet() throws {
        let work = try temporaryFolder("parquet-run")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = try Self.data(in: work, rows: [], asParquet: true)
        let out = work.appendingPathComponent("reports"), db = work.appendingPathComponent("t.sqlite")
        for command in [["run", "--out", out.path, "--period", "2026-10"], ["ingest"]] {
            let ran = try Self.tally(command + ["--data", data.path, "--db", db.path, "--quiet"], Data(), work)
            #expect(ran.code == 66, "\(command[0]): \(ran.code) \(ran.err)")
            #expect(ran.err.contains("checkins/checkins/ is a Parquet table (checkins/checkins/part-00000.parquet): tally run reads the exports"),
                    "\(ran.err)")
            #expect(ran.err.contains("the Spark job reads Parquet"), "\(ran.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
        #expect(!FileManager.default.fileExists(atPath: db.path))
    }

    @Test("the catalogue takes Parquet parts and a table as one Parquet file, and ignores what Spark leaves beside its parts")
    func catalogueTakesParquet() throws {
        let work = try temporaryFolder("parquet-catalogue")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = try Self.data(in: work, rows: [], asParquet: true)
        try FileManager.default.removeItem(at: data.appendingPathComponent("health/activity.csv"))
        try Data("PAR1".utf8).write(to: data.appendingPathComponent("health/activity.PARQUET"))
        try Data("PAR1".utf8).write(to: data.appendingPathComponent("checkins/checkins/part-00001.snappy.parquet"))
        try Data().write(to: data.appendingPathComponent("checkins/checkins/.part-00000.parquet.crc"))
        let catalog = try InputCatalog.scan(data)
        // In load order: the contract's tables in order, a table's parts by name.
        #expect(catalog.parquetFiles.map(\.relativePath)
                == ["health/activity.PARQUET", "checkins/checkins/part-00000.parquet", "checkins/checkins/part-00001.snappy.parquet"])
        #expect(catalog.parquetFiles.map(\.table) == [.activity, .checkins, .checkins])
        #expect(catalog.files.filter { !$0.isParquet }.allSatisfy { !$0.relativePath.hasSuffix("parquet") })
        #expect(catalog.ignored.map(\.path) == ["checkins/checkins/_SUCCESS"])
        #expect(throws: CatalogError.self) { try catalog.refusingParquet() }
        do {
            try catalog.refusingParquet()
        } catch {
            #expect("\(error)".hasPrefix("health/activity.PARQUET, checkins/checkins/ are Parquet tables (health/activity.PARQUET)"),
                    "\(error)")
        }
        #expect(throws: Never.self) { try InputCatalog.scan(repositoryRoot.appendingPathComponent("sample-data")).refusingParquet() }
    }

    @Test("the plan lists a Parquet part as a source, with the starts of its lines; a plan without one has no sources")
    func planListsSources() throws {
        let work = try temporaryFolder("parquet-plan")
        defer { try? FileManager.default.removeItem(at: work) }
        let (_, plan) = try Self.plan(try Self.data(in: work, rows: [], asParquet: true), in: work)
        let seq = try #require(plan.files.firstIndex(of: "checkins/checkins/part-00000.parquet")) + 1
        let key = String(decoding: FlowLines.keyField(of: FlowKeys.file(seq)), as: UTF8.self)
        #expect(plan.sources == [DataflowProcesses.Plan.Source(
            path: "checkins/checkins/part-00000.parquet", format: "parquet",
            columnsLine: "\(key)\tflow.v2\tsource-columns\t", rowLine: "\(key)\tflow.v2\tsource-row\t", broadcast: false)])
        #expect(!plan.files.contains { $0.hasSuffix("_SUCCESS") })

        let sample = work.appendingPathComponent("sample")
        try FileManager.default.createDirectory(at: sample, withIntermediateDirectories: true)
        let planned = try Self.tally(["plan", "--data", repositoryRoot.appendingPathComponent("sample-data").path, "--period", "2026-10",
                                      "--out", work.appendingPathComponent("r").path], Data(), sample)
        #expect(!String(decoding: planned.out, as: UTF8.self).contains("sources"))
    }

    @Test("decode reads a Parquet part's rows as it reads the same rows exported as NDJSON: rows, rejects by line, size and SHA-256")
    func decodeReadsSourceRowsAsNDJSON() throws {
        let rows = try Self.rows()
        let work = try temporaryFolder("parquet-decode")
        defer { try? FileManager.default.removeItem(at: work) }
        let exportWork = work.appendingPathComponent("export"), parquetWork = work.appendingPathComponent("parquet")
        for folder in [exportWork, parquetWork] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }

        let (exportPlanURL, exportPlan) = try Self.plan(try Self.data(in: exportWork, rows: rows, asParquet: false), in: exportWork)
        let seq = try #require(exportPlan.files.firstIndex(of: "checkins/checkins.ndjson")) + 1
        let exported = try Self.tally(["worker", "decode", "--plan", exportPlanURL.path], Data((exportPlan.tasks[seq - 1] + "\n").utf8), exportWork)
        #expect(exported.code == 0, "\(exported.err)")

        let (parquetPlanURL, parquetPlan) = try Self.plan(try Self.data(in: parquetWork, rows: [], asParquet: true), in: parquetWork)
        #expect(parquetPlan.files.firstIndex(of: "checkins/checkins/part-00000.parquet") == seq - 1)
        let source = try #require(parquetPlan.sources?.first)
        let lines = (Self.sourceLines(source, columns: try Self.columns(of: rows), rows: rows) + [parquetPlan.tasks[seq - 1]]).sorted()
        #expect(lines.last == parquetPlan.tasks[seq - 1], "the task sorts after its file's rows")
        let decoded = try Self.tally(["worker", "decode", "--plan", parquetPlanURL.path], Data(lines.map { $0 + "\n" }.joined().utf8), parquetWork)
        #expect(decoded.code == 0, "\(decoded.err)")

        let expected = String(decoding: exported.out, as: UTF8.self)
            .replacingOccurrences(of: "checkins/checkins.ndjson", with: "checkins/checkins/part-00000.parquet")
        let output = String(decoding: decoded.out, as: UTF8.self)
        #expect(output == expected)
        #expect(output.contains("\tcheckins/checkins/part-00000.parquet\t3\tlate-"), "the reject names the part and the row's number")
        #expect(try DataflowProcessTests.recordLines(decoded.out).count == 4, "two rows, a reject, what reading gave")
    }

    @Test("a Parquet part without a column every row needs is refused whole, in a CSV header's words")
    func missingColumnRefusesThePart() throws {
        let work = try temporaryFolder("parquet-columns")
        defer { try? FileManager.default.removeItem(at: work) }
        let (planURL, _, source, task) = try Self.parquetPlan(in: work)
        let rows = try Self.rows().map { $0.replacingOccurrences(of: #""userId":"[^"]*","#, with: "", options: .regularExpression) }
        let lines = (Self.sourceLines(source, columns: try Self.columns(of: rows) + ["shoe_size"], rows: rows) + [task]).sorted()
        let decoded = try Self.tally(["worker", "decode", "--plan", planURL.path], Data(lines.map { $0 + "\n" }.joined().utf8), work)
        #expect(decoded.code == 0, "\(decoded.err)")
        let output = Self.lines(decoded.out)
        #expect(output.count == 1, "only the refusal: \(output)")
        #expect(output.first?.hasPrefix("merge\t") == true)
        #expect(output.first?.contains("no column 'userId': every row needs it (the columns are id, groupId") == true, "\(output)")
        #expect(output.first?.contains("shoe_size") == true, "the unknown column is listed: \(output)")
    }

    @Test("fx rates kept as Parquet, which stages read whole, come from the plan's sourceLines: the same rates as the export's")
    func broadcastTablesComeFromThePlan() throws {
        let work = try temporaryFolder("parquet-broadcast")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = try copyOfSampleData(in: work)
        let csv = data.appendingPathComponent("expenses/fx.csv")
        let text = try String(contentsOf: csv, encoding: .utf8)
        try FileManager.default.removeItem(at: csv)
        let folder = data.appendingPathComponent("expenses/fx")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("PAR1".utf8).write(to: folder.appendingPathComponent("part-00000.parquet"))

        let out = work.appendingPathComponent("reports")
        var plan = try DataflowProcesses.plan(data: data, period: YearMonth("2026-10")!, configURL: nil, timezone: nil, asOf: nil, out: out)
        #expect(plan.sources?.map(\.broadcast) == [true])
        let source = try #require(plan.sources?.first)
        #expect(throws: DataflowError.self) { try FlowBroadcast.fxRates(try DataflowProcesses.flowPlan(plan)) }
        do {
            _ = try FlowBroadcast.fxRates(try DataflowProcesses.flowPlan(plan))
        } catch {
            #expect("\(error)" == "expenses/fx/part-00000.parquet is Parquet, and stages read expenses/fx whole: the engine puts its lines in the plan's sourceLines, and this plan has none for it")
        }

        // The export's rows as the engine writes them: one JSON object per CSV record (fx.csv quotes nothing).
        let records = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = records[0]
        let objects = try records.dropFirst().map { values in
            String(decoding: try JSONSerialization.data(withJSONObject: Dictionary(uniqueKeysWithValues: zip(header, values)),
                                                        options: [.sortedKeys]), as: UTF8.self)
        }
        plan.sourceLines = [source.path: Self.sourceLines(source, columns: header, rows: objects).reversed()]
        let fromParquet = try FlowBroadcast.fxRates(try DataflowProcesses.flowPlan(plan))
        let exportPlan = try DataflowProcesses.plan(data: repositoryRoot.appendingPathComponent("sample-data"), period: YearMonth("2026-10")!,
                                                    configURL: nil, timezone: nil, asOf: nil, out: out)
        let fromExport = try FlowBroadcast.fxRates(try DataflowProcesses.flowPlan(exportPlan))
        #expect(fromParquet.count == records.count - 1)
        #expect(Set(fromParquet) == Set(fromExport))
    }

    @Test("a worker stops when the engine's rows are missing, repeated, split, without their columns or task, or for a file tally reads")
    func workerRefusesBrokenSourceLines() throws {
        let work = try temporaryFolder("parquet-broken")
        defer { try? FileManager.default.removeItem(at: work) }
        let (planURL, plan, source, task) = try Self.parquetPlan(in: work)
        let rows = try Self.rows()
        let good = Self.sourceLines(source, columns: try Self.columns(of: rows), rows: rows)
        func decode(_ lines: [String]) throws -> (code: Int32, err: String) {
            let ran = try Self.tally(["worker", "decode", "--plan", planURL.path], Data(lines.map { $0 + "\n" }.joined().utf8), work)
            return (ran.code, ran.err)
        }
        let cases: [(String, [String], String)] = [
            ("a row missing", [good[0], good[1], good[3], task], "line 3: source row 2 came where row 1 was due"),
            ("a row twice", [good[0], good[1], good[1], good[2], task], "line 3: source row 0 came where row 1 was due"),
            ("no columns", Array(good.dropFirst()) + [task], "line 1: a source-row line before its file's source-columns line"),
            ("two column lines", [good[0], good[0]], "line 2: a second source-columns line for one file"),
            ("no task", good, "line 1: rows of a file from the engine came without the file's task"),
            ("no rows at all", [task], "\(source.path) is Parquet: its rows come from the engine that reads it (the Spark job), and none came before its task"),
            ("a row split by a line break", [good[0], source.rowLine + "0000000000000000000\t{\"id\":\\n\"x\"}", task],
             "line 2: source row 0 holds a line break"),
        ]
        for (what, lines, message) in cases {
            let ran = try decode(lines)
            #expect(ran.code == 1, "\(what): \(ran.code)")
            #expect(ran.err.contains(message), "\(what): \(ran.err)")
        }
        // Rows for a file tally reads itself (the first task's, a CSV export).
        let csvTask = plan.tasks[0]
        let csvKey = String(csvTask.prefix { $0 != "\t" })
        let foreign = [csvKey + "\tflow.v2\tsource-columns\t1\tid", csvTask]
        let ran = try decode(foreign)
        #expect(ran.code == 1)
        #expect(ran.err.contains("line 1: rows of a file from the engine came without the file's task"), "\(ran.err)")
    }

    static func lines(_ data: Data) -> [String] {
        DataflowProcessTests.lines(data).map { String(decoding: $0, as: UTF8.self) }
    }
}
