import Foundation
import Testing
@testable import TallyPipeline
import TallyWire

/// `tally plan`, `tally worker` and `tally merge` as separate processes,
/// chained with no engine: each wave's lines sorted by key (bytes), fed to
/// one worker running the wave's stages, its output routed by the stage
/// each line names. The reports
/// rejects.csv and run.json equal the committed golden reports of `tally
/// run --reproducible` byte for byte; a
/// worker given lines it cannot use fails, naming the stage and the line.
@Suite("Dataflow processes: plan, worker and merge chained without an engine", .serialized,
       .enabled(if: FileManager.default.isExecutableFile(atPath: repositoryRoot.appendingPathComponent(".build/debug/tally").path)))
struct DataflowProcessTests {
    /// Runs the built `tally` with `input` on stdin (through files, so large outputs cannot block).
    static func tally(_ arguments: [String], input: Data = Data(), in work: URL) throws -> (code: Int32, out: Data, err: String) {
        let stdin = work.appendingPathComponent("stdin"), stdout = work.appendingPathComponent("stdout")
        let stderr = work.appendingPathComponent("stderr")
        try input.write(to: stdin)
        for file in [stdout, stderr] { FileManager.default.createFile(atPath: file.path, contents: nil) }
        let process = Process()
        process.executableURL = repositoryRoot.appendingPathComponent(".build/debug/tally")
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: stdin)
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try Data(contentsOf: stdout), try String(contentsOf: stderr, encoding: .utf8))
    }

    /// The lines of `data`, without their line feeds.
    static func lines(_ data: Data) -> [Data] {
        data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).map { Data($0) }
    }

    /// The output lines of a worker with each batch line spelt out: one
    /// line per record (`DEST<TAB>KEY<TAB>RECORD`), as a worker wrote them
    /// before it sent a key's records together.
    static func recordLines(_ data: Data) throws -> [String] {
        try lines(data).flatMap { line -> [String] in
            let dest = String(decoding: line.prefix { $0 != UInt8(ascii: "\t") }, as: UTF8.self)
            let rest = Array(line.dropFirst(dest.utf8.count + 1))
            let (key, records) = try rest.withUnsafeBufferPointer { try FlowLines.readRecords($0, number: 1) }
            return records.map { record in
                var writer = WireWriter()
                FlowLines.append(destination: dest, key: key, record, to: &writer)
                return String(decoding: writer.bytes.dropLast(), as: UTF8.self)
            }
        }
    }

    /// The key field of a line: up to its first TAB.
    static func key(_ line: Data) -> Data { line.prefix { $0 != UInt8(ascii: "\t") } }

    @Test("the stages chained through a sort give the golden reports")
    func chainGivesTheGoldenReports() throws {
        let work = try temporaryFolder("dataflow-chain")
        defer { try? FileManager.default.removeItem(at: work) }
        let out = work.appendingPathComponent("reports")
        let plan = work.appendingPathComponent("plan.json")
        let planned = try Self.tally(["plan", "--data", repositoryRoot.appendingPathComponent("sample-data").path,
                                      "--period", "2026-10", "--out", out.path], in: work)
        #expect(planned.code == 0, "\(planned.err)")
        try planned.out.write(to: plan)
        let parsed = try JSONDecoder().decode(DataflowProcesses.Plan.self, from: planned.out)
        var routed: [String: [Data]] = ["decode": parsed.tasks.map { Data($0.utf8) }]
        // One worker per wave (as the Spark driver runs them), its stages' lines sorted by the key field's
        // bytes, as an engine sorts a partition (a single partition here).
        for (index, wave) in parsed.waves.enumerated() {
            let input = wave.flatMap { routed.removeValue(forKey: $0) ?? [] }
                .sorted { Self.key($0).lexicographicallyPrecedes(Self.key($1)) }
            let ran = try Self.tally(["worker", wave.joined(separator: ","), "--plan", plan.path],
                                     input: Data(input.joined(separator: Data([10])) + (input.isEmpty ? Data() : Data([10]))), in: work)
            #expect(ran.code == 0, "\(wave): \(ran.err)")
            let later = Set(parsed.waves[(index + 1)...].joined())
            for line in Self.lines(ran.out) {
                let dest = String(decoding: Self.key(line), as: UTF8.self)
                #expect(dest == "merge" || later.contains(dest), "\(wave) routed a line to \(dest)")
                routed[dest, default: []].append(line.dropFirst(dest.utf8.count + 1))
            }
        }
        // Superseded rows reach the merge combined: one line per file and worker, not one per row.
        let merges = try Self.recordLines(Data((routed["merge"] ?? []).map { Data("merge\t".utf8) + $0 }.joined(separator: Data([10]))))
        let superseded = merges.filter { $0.contains("\tflow.v2\tsuperseded\t") }
        let perFile = Dictionary(grouping: superseded, by: { $0.split(separator: "\t", omittingEmptySubsequences: false)[1] })
        #expect(!perFile.isEmpty, "sample-data/ has superseded rows")
        #expect(perFile.values.allSatisfy { $0.count <= parsed.waves.count }, "\(superseded.count) superseded lines for \(perFile.count) files")
        let merged = try Self.tally(["merge", "--plan", plan.path, "--reproducible"],
                                    input: Data((routed["merge"] ?? []).joined(separator: Data([10]))), in: work)
        #expect(merged.code == 0, "\(merged.err)")
        for family in DataflowScheduleTests.families {
            let golden = try DataflowScheduleTests.files(under: repositoryRoot.appendingPathComponent("reports").appendingPathComponent(family))
            let written = try DataflowScheduleTests.files(under: out.appendingPathComponent(family))
            #expect(golden.keys.sorted() == written.keys.sorted(), "\(family)")
            for (name, bytes) in golden where name.hasSuffix(".csv") || name.hasSuffix(".txt") {
                #expect(written[name] == bytes, "\(family)/\(name) differs")
            }
        }
        for name in ["rejects.csv", "run.json"] {
            #expect(try Data(contentsOf: out.appendingPathComponent(name))
                    == Data(contentsOf: repositoryRoot.appendingPathComponent("reports").appendingPathComponent(name)), "\(name) differs")
        }
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent(".tally-parts").path),
                "the workers' staging folder is removed once published")
    }

    @Test("a file refused late (a truncated gzip) gives only its refusal, none of the rows read before it")
    func decodeDropsTheRowsOfAFileRefusedLate() throws {
        let work = try temporaryFolder("dataflow-truncated")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = try copyOfSampleData(in: work)
        let gzip = data.appendingPathComponent("swipes/swipes.ndjson.gz")
        let bytes = try Data(contentsOf: gzip)
        try bytes.prefix(bytes.count / 2).write(to: gzip)
        let plan = work.appendingPathComponent("plan.json")
        let planned = try Self.tally(["plan", "--data", data.path, "--period", "2026-10", "--out", work.appendingPathComponent("reports").path],
                                     in: work)
        try planned.out.write(to: plan)
        let parsed = try JSONDecoder().decode(DataflowProcesses.Plan.self, from: planned.out)
        let seq = try #require(parsed.files.firstIndex(of: "swipes/swipes.ndjson.gz")) + 1
        let ran = try Self.tally(["worker", "decode", "--plan", plan.path], input: Data((parsed.tasks[seq - 1] + "\n").utf8), in: work)
        #expect(ran.code == 0, "\(ran.err)")
        let lines = Self.lines(ran.out).map { String(decoding: $0, as: UTF8.self) }
        #expect(lines.count == 1, "\(lines.count) lines")
        let keyField = String(decoding: FlowLines.keyField(of: FlowKeys.file(seq)), as: UTF8.self)
        #expect(keyField.hasSuffix("file\\t\(seq)"), "\(keyField)")
        #expect(lines.first?.hasPrefix("merge\t\(keyField)\tflow.v2\tfile-read\t") == true, "\(lines.first ?? "")")
    }

    @Test("the plan carries the configuration's text: workers never read the file")
    func planCarriesTheConfiguration() throws {
        let work = try temporaryFolder("dataflow-config")
        defer { try? FileManager.default.removeItem(at: work) }
        let config = work.appendingPathComponent("studio settings.yml")
        let text = "timezone: Europe/Berlin\nlocale: en-US\n"
        try Data(text.utf8).write(to: config)
        let plan = work.appendingPathComponent("plan.json")
        let planned = try Self.tally(["plan", "--data", repositoryRoot.appendingPathComponent("sample-data").path, "--period", "2026-10",
                                      "--config", config.path, "--out", work.appendingPathComponent("reports").path], in: work)
        #expect(planned.code == 0, "\(planned.err)")
        try planned.out.write(to: plan)
        let parsed = try JSONDecoder().decode(DataflowProcesses.Plan.self, from: planned.out)
        #expect(parsed.configText == text)
        // On an executor the file is not there; the plan is.
        try FileManager.default.removeItem(at: config)
        let ran = try Self.tally(["worker", "decode", "--plan", plan.path], input: Data((parsed.tasks[0] + "\n").utf8), in: work)
        #expect(ran.code == 0, "\(ran.err)")
        // A configuration error still names the file the text came from.
        var broken = parsed
        broken.configText = "timezone: Mars/Olympus\n"
        try JSONEncoder().encode(broken).write(to: plan)
        let refused = try Self.tally(["worker", "decode", "--plan", plan.path], input: Data((parsed.tasks[0] + "\n").utf8), in: work)
        #expect(refused.code != 0)
        #expect(refused.err.contains("studio settings.yml"), "\(refused.err)")
    }

    @Test("a worker refuses input it cannot use, naming the stage and the line")
    func workerRefusesBadInput() throws {
        let work = try temporaryFolder("dataflow-bad")
        defer { try? FileManager.default.removeItem(at: work) }
        let plan = work.appendingPathComponent("plan.json")
        let planned = try Self.tally(["plan", "--data", repositoryRoot.appendingPathComponent("sample-data").path,
                                      "--period", "2026-10", "--out", work.appendingPathComponent("reports").path], in: work)
        try planned.out.write(to: plan)
        let tasks = try JSONDecoder().decode(DataflowProcesses.Plan.self, from: planned.out).tasks

        let garbage = try Self.tally(["worker", "rows", "--plan", plan.path], input: Data("hello world\n".utf8), in: work)
        #expect(garbage.code == 1)
        #expect(garbage.err == "tally worker rows: line 1 has no TAB after its key\n")

        let unsorted = try Self.tally(["worker", "decode", "--plan", plan.path],
                                      input: Data((tasks.sorted(by: >).prefix(2).joined(separator: "\n") + "\n").utf8), in: work)
        #expect(unsorted.code == 1)
        #expect(unsorted.err.hasPrefix("tally worker decode: line 2: the input is not sorted by key (bytes)"), "\(unsorted.err)")

        let k = String(decoding: FlowLines.keyField(of: Array("k".utf8)), as: UTF8.self)
        let wrongKind = try Self.tally(["worker", "rows", "--plan", plan.path], input: Data("\(k)\tflow.v2\tnonsense\t1\n".utf8), in: work)
        #expect(wrongKind.code == 1)
        #expect(wrongKind.err.contains("'nonsense' is not a dataflow record"), "\(wrongKind.err)")

        let noPrefix = try Self.tally(["worker", "rows", "--plan", plan.path], input: Data("k\tflow.v2\tnonsense\t1\n".utf8), in: work)
        #expect(noPrefix.code == 1)
        #expect(noPrefix.err == "tally worker rows: line 1 has a key field shorter than its 8-character prefix\n")

        let cut = String(tasks[0].dropFirst())
        let wrongPrefix = try Self.tally(["worker", "decode", "--plan", plan.path], input: Data("\(cut)\n".utf8), in: work)
        #expect(wrongPrefix.code == 1)
        #expect(wrongPrefix.err.contains("line 1 has a key field whose prefix is not its key's"), "\(wrongPrefix.err)")

        let notAWave = try Self.tally(["worker", "rows,couples", "--plan", plan.path], in: work)
        #expect(notAWave.code == 1)
        #expect(notAWave.err.hasPrefix("tally worker rows,couples: rows,couples are not stages of one wave"), "\(notAWave.err)")

        let noStage = try Self.tally(["worker", "nosuch", "--plan", plan.path], in: work)
        #expect(noStage.code == 1)
        #expect(noStage.err.hasPrefix("tally worker nosuch: 'nosuch' is not a stage (the stages: decode, rows"), "\(noStage.err)")

        let misrouted = try Self.tally(["worker", "users", "--plan", plan.path], input: Data((tasks[0] + "\n").utf8), in: work)
        #expect(misrouted.code == 1)
        #expect(misrouted.err == "tally worker users: line 1: a record for decode is not an input of users\n")
    }
}
