import Foundation
import Logging
import TallyCore
import TallyIngest
import TallyWire

/// The dataflow as separate processes, for an engine such as Spark to
/// schedule (the Hadoop Streaming pattern): `tally plan` says what to run,
/// `tally worker` runs one stage on one partition of key-sorted lines,
/// `tally merge` writes the reports. The engine only moves lines: every rule
/// runs in the workers, in TallyCore's code. See docs/scale-out.md.
///
/// ```sh
/// tally plan --data data --period 2026-10 > plan.json
/// # stage 0's input: the plan's tasks; each stage's output lines name the next stage
/// printf '%s\n' "$tasks" | tally worker decode --plan plan.json > decoded
/// … | LC_ALL=C sort | tally worker rows --plan plan.json > …
/// cat merge-lines | tally merge --plan plan.json --out reports --reproducible
/// ```
public enum DataflowProcesses {
    /// What `tally plan` prints: the stages in order and the first stage's
    /// input lines for the engine; the rest (the data folder, period,
    /// settings, the input files in load order) for the workers and merge.
    public struct Plan: Codable, Sendable {
        public var format = "tally-plan"
        public var version = 1
        /// The stages a worker runs, in order (the merge is not one).
        public var stages: [String]
        /// The stages by wave: each wave's stages take input only from earlier
        /// waves, so one worker may run a whole wave (`tally worker a,b,c`).
        public var waves: [[String]]
        /// The first stage's input lines: one task per input file, under
        /// the key of its group (the files one decode worker reads
        /// together: the subscription events' file with the App Store
        /// reports; every other file alone).
        public var tasks: [String]
        /// Lines whose keys are equal share their first `keyPrefixBytes`
        /// bytes (``FlowLines``' spread prefix), and those bytes spread the
        /// keys evenly: an engine may partition lines by them instead of by
        /// the whole key field.
        public var keyPrefixBytes: Int? = FlowLines.spreadWidth
        /// The data folder, absolute: every process reads the inputs from there (shared storage on a cluster).
        public var data: String
        public var period: String
        /// The configuration file `tally plan` read (for messages), and its
        /// text, which the workers and the merge use: nothing re-reads the file.
        public var config: String?
        public var configText: String?
        public var timezone: String?
        public var asOf: String?
        /// The input files in load order, relative to `data`: a worker refuses to run if the folder changed.
        public var files: [String]
        /// The report folder, absolute: the workers write the couples' and challenges' own files into
        /// its `.tally-parts/` (on storage every process reaches), the merge publishes everything there.
        public var out: String
        /// The input files the engine reads itself and sends to decode as
        /// lines (Parquet parts), in load order; absent when there are none.
        public var sources: [Source]?
        /// Filled in by the engine before it ships the plan: the lines of
        /// each source marked `broadcast` (the same lines it sends to
        /// decode), by its path.
        public var sourceLines: [String: [String]]?

        /// A file the engine reads itself. Its lines go to decode with the
        /// tasks: one line listing its columns, then one line per row; each
        /// is the start the plan gives, then fields the engine appends, each
        /// escaped as wire fields are (`\` to `\\`, TAB to `\t`, LF to `\n`,
        /// CR to `\r`).
        public struct Source: Codable, Sendable, Equatable {
            /// The file, relative to `data`.
            public var path: String
            /// How the engine reads it: `parquet`.
            public var format: String
            /// The start of the columns' line; the engine appends the number
            /// of columns, then each column's name, each after a TAB.
            public var columnsLine: String
            /// The start of each row's line; the engine appends the row's
            /// index in the file (from 0, zero-padded to 19 digits, so that
            /// lines sorted as bytes come in the file's order), a TAB, and
            /// the row as one JSON object on one line, a null value absent.
            public var rowLine: String
            /// Whether stages read the file whole (a small reference table:
            /// fx rates, products): the engine then also puts its lines in
            /// the plan's `sourceLines` before shipping the plan.
            public var broadcast: Bool
        }
    }

    /// The plan of a run over `data` into `out`: the workers write the
    /// entities' own files there (a staging folder the merge publishes);
    /// what a failed job left there is removed.
    public static func plan(data: URL, period: YearMonth, configURL: URL?, timezone: String?, asOf: LocalDate?,
                            out: URL) throws -> Plan {
        let data = data.standardizedFileURL
        let request = RunRequest(dataDirectory: data, outDirectory: data, period: period,
                                 configURL: configURL?.standardizedFileURL, timezone: timezone)
        let flow = try flowPlan(request, asOf: asOf)
        var tasks: [String] = []
        for seq in flow.files.indices.map({ $0 + 1 }) {
            var writer = WireWriter()
            FlowLines.append(key: flow.taskKey(of: seq), .task(file: seq), to: &writer)
            tasks.append(String(decoding: writer.bytes.dropLast(), as: UTF8.self))
        }
        let sources = Self.sources(of: flow)
        let out = out.standardizedFileURL
        try? FileManager.default.removeItem(at: out.appendingPathComponent(FlowPlan.stagingFolder))
        let configURL = request.resolvedConfigURL
        return Plan(stages: FlowStageName.allCases.filter { $0 != .merge }.map(\.rawValue),
                    waves: FlowStageName.waves.map { $0.map(\.rawValue) }, tasks: tasks, data: data.path,
                    period: period.description, config: configURL?.path, configText: try configURL.map(ConfigLoader.read),
                    timezone: timezone, asOf: asOf?.description, files: flow.files.map(\.relativePath), out: out.path,
                    sources: sources.isEmpty ? nil : sources)
    }

    /// The plan's sources: its Parquet files, each with the starts of its lines (under its task's key).
    static func sources(of flow: FlowPlan) -> [Plan.Source] {
        let files = flow.files
        var sources: [Plan.Source] = []
        for index in files.indices where files[index].isParquet {
            let key = flow.taskKey(of: index + 1)
            var broadcast = false
            if let table = files[index].table { broadcast = FlowBroadcast.tables.contains(table) }
            sources.append(Plan.Source(path: files[index].relativePath, format: "parquet",
                                       columnsLine: FlowLines.linePrefix(key: key, case: FlowRecord.sourceColumnsCase),
                                       rowLine: FlowLines.linePrefix(key: key, case: FlowRecord.sourceRowCase),
                                       broadcast: broadcast))
        }
        return sources
    }

    /// Runs stage `stage` on the key-sorted lines of `input`, writing its
    /// output lines (`stage<TAB>key<TAB>record`) to `output`. `stage` may
    /// name several stages of one wave, comma-separated (`couples,groups`):
    /// each record then goes to the one of them that takes its kind, and the
    /// records of a key are run stage by stage.
    public static func worker(stage name: String, plan: Plan, input: FileHandle, output: FileHandle) throws {
        var stages: [FlowStageName] = []
        for part in name.split(separator: ",", omittingEmptySubsequences: false) {
            guard let stage = FlowStageName(rawValue: String(part)), stage != .merge else {
                throw DataflowError("'\(part)' is not a stage (the stages: \(plan.stages.joined(separator: ", ")))")
            }
            stages.append(stage)
        }
        guard Set(stages.map(\.wave)).count == 1, Set(stages).count == stages.count else {
            throw DataflowError("\(name) are not stages of one wave (the waves: \(plan.waves.map { $0.joined(separator: ",") }.joined(separator: " then ")))")
        }
        let flow = try flowPlan(plan)
        if stages == [.decode] { return try decode(flow, input: input, output: output) }
        let workers = try stages.map { try FlowWorker(stage: $0, plan: flow) }
        let wave = stages[0].wave
        var out = WireWriter(reservingCapacity: 1 << 20)
        var failure: Error?
        func emit(_ dest: FlowStageName, _ key: [UInt8], _ record: FlowRecord) {
            if dest.wave <= wave { failure = DataflowError("\(name) routed a record to \(dest), which is not in a later wave") }
            FlowLines.append(stage: dest, key: key, record, to: &out)
        }
        func flush(force: Bool) throws {
            if force || out.bytes.count >= 1 << 20 {
                try output.write(contentsOf: out.bytes)
                out.bytes.removeAll(keepingCapacity: true)
            }
        }
        // The group being read: its key as on the lines (escaped: the bytes the engine sorted),
        // as a key, and its records by the stage (index in `stages`) that takes them.
        var current: (field: [UInt8], key: [UInt8], records: [[FlowRecord]], line: Int)?
        func runGroup() throws {
            guard let group = current else { return }
            for (i, records) in group.records.enumerated() where !records.isEmpty {
                do {
                    try workers[i].run(key: group.key, records, emit: emit)
                } catch {
                    throw DataflowError("\(stages[i]), key '\(String(decoding: group.key.prefix(80), as: UTF8.self))' (line \(group.line)): \(error)")
                }
                if let failure { throw failure }
            }
            try flush(force: false)
        }
        try FlowLines.forEachLine(of: input) { line, number in
            let (key, records) = try FlowLines.readRecords(line, number: number)
            let field = FlowLines.keyField(line)
            if current == nil || !current!.field.elementsEqual(field) {
                if let c = current, !FlowLines.keyFieldPrecedes(c.field, field) {
                    throw DataflowError("line \(number): the input is not sorted by key (bytes): '\(String(decoding: field.prefix(80), as: UTF8.self))' comes after '\(String(decoding: c.field.prefix(80), as: UTF8.self))'")
                }
                try runGroup()
                current = (Array(field), key, [[FlowRecord]](repeating: [], count: stages.count), number)
            }
            for record in records {
                guard let index = stages.firstIndex(where: record.stages.contains) else {
                    throw DataflowError("line \(number): a record for \(record.stages.map(\.rawValue).sorted().joined(separator: " or ")) is not an input of \(name)")
                }
                current!.records[index].append(record)
            }
        }
        try runGroup()
        for (i, worker) in workers.enumerated() {
            do {
                try worker.finish(emit: emit)
            } catch {
                throw DataflowError("\(stages[i]), the partition's end: \(error)")
            }
            if let failure { throw failure }
        }
        try flush(force: true)
    }

    /// The decode stage as a worker: each task's file is read with its output
    /// records held on disk (memory stays a few buffers, however large the
    /// input file) and kept once the file was read to its end, taken back
    /// when it was refused.
    ///
    /// The tasks of one key are a group of files decoded together
    /// (``FlowPlan/group(of:)``); the records for the stages whose every
    /// input comes from the group (``FlowPlan/stagesInGroup(of:)``) are held
    /// for them (``InFileStages``), and those stages run once the group's
    /// last task was read. Everything else the group sends leaves then, a
    /// line per stage and key (``BatchedOutput``).
    ///
    /// A Parquet part's rows come from the engine under its task's key: its
    /// `source-columns` line, then its `source-row` lines by index from 0,
    /// before the tasks (lines sorted as bytes put them in that order). The
    /// rows are held as NDJSON in a file on disk until its task comes.
    private static func decode(_ plan: FlowPlan, input: FileHandle, output: FileHandle) throws {
        let stage = DecodeStage(plan: plan)
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tally-decode-\(ProcessInfo.processInfo.processIdentifier)")
        let batched = BatchedOutput(base: base)
        var previous: [UInt8]?
        var source: SourceRows?
        var held: InFileStages?
        defer {
            source?.discard()
            held?.discard()
            batched.discard()
        }
        /// Ends the key's group: its held stages run, what it sends leaves, the Parquet rows left over are an error.
        func endGroup() throws {
            if let rows = source {
                throw DataflowError("line \(rows.firstLine): rows of a file from the engine came without the file's task")
            }
            if let group = held {
                held = nil
                defer { group.discard() }
                try group.run(emit: batched.add)
            }
            try batched.write(to: output)
        }
        try FlowLines.forEachLine(of: input) { line, number in
            let record = try FlowLines.read(line, number: number).record
            let field = Array(FlowLines.keyField(line))
            if let previous, previous != field {
                guard FlowLines.keyFieldPrecedes(previous, field) else {
                    throw DataflowError("line \(number): the input is not sorted by key (bytes): '\(String(decoding: field.prefix(80), as: UTF8.self))' comes after '\(String(decoding: previous.prefix(80), as: UTF8.self))'")
                }
                try endGroup()
            }
            previous = field
            if try SourceRows.take(record, into: &source, line: number) { return }
            switch record {
            case .task(let seq):
                guard seq >= 1 && seq <= plan.files.count else {
                    throw DataflowError("line \(number): the plan has no input file \(seq)")
                }
                let file = plan.file(seq)
                guard FlowLines.keyField(of: plan.taskKey(of: seq)) == field else {
                    throw DataflowError("line \(number): the task of \(file.relativePath) is not under its group's key (the plan's task line was changed)")
                }
                if held == nil {
                    let stages = plan.stagesInGroup(of: seq)
                    if !stages.isEmpty { held = InFileStages(group: plan.group(of: seq), stages: stages, plan: plan) }
                }
                if file.isParquet {
                    guard let rows = source else {
                        throw DataflowError("line \(number): \(file.relativePath) is Parquet: its rows come from the engine that reads it (the Spark job), and none came before its task")
                    }
                    source = nil
                    defer { rows.discard() }
                    try rows.finish()
                    try decodeFile(seq, plan: plan, held: held, batched: batched, output: output) { emit in
                        try stage.read(file: seq, columns: rows.columns, rows: rows.url, emit: emit)
                    }
                } else {
                    try decodeFile(seq, plan: plan, held: held, batched: batched, output: output) { emit in
                        try stage.read(file: seq, emit: emit)
                    }
                }
            default:
                throw DataflowError("line \(number): a record for \(record.stages.map(\.rawValue).sorted().joined(separator: " or ")) is not an input of decode")
            }
        }
        try endGroup()
    }

    /// Reads file `seq` with `read`: the records for a stage `held` holds go
    /// to it, the others to `batched`. When the file is refused (read to its
    /// end or not), what it added to either is taken back. Then the file's
    /// ``FileRead`` goes to the merge.
    private static func decodeFile(_ seq: Int, plan: FlowPlan, held: InFileStages?, batched: BatchedOutput, output: FileHandle,
                                   read: (_ emit: FlowEmit) throws -> FileRead?) throws {
        let marks = (held: held?.mark(), batched: batched.mark())
        let outcome: FileRead?
        do {
            outcome = try read { dest, key, record in
                if let held, held.holds(dest) { held.add(dest, key, record) } else { batched.add(dest, key, record) }
            }
        } catch {
            throw DataflowError("\(plan.file(seq).relativePath): \(error)")
        }
        guard let outcome else { return }
        if outcome.refusal != nil {
            if let held, let mark = marks.held { held.takeBack(to: mark) }
            batched.takeBack(to: marks.batched)
        }
        var last = WireWriter()
        FlowLines.append(stage: .merge, key: FlowKeys.file(seq), .fileRead(outcome), to: &last)
        try output.write(contentsOf: last.bytes)
    }

    /// Folds the lines routed to the merge (any order) into the reports in
    /// `out`, with rejects.csv and run.json, as `tally run` writes them.
    @discardableResult
    public static func merge(plan: Plan, input: FileHandle, out: URL, reproducible: Bool) throws -> RunManifest {
        guard URL(fileURLWithPath: plan.out).standardizedFileURL == out.standardizedFileURL else {
            throw DataflowError("the plan writes into \(plan.out), not \(out.path): give tally merge the plan's --out")
        }
        let merge = FlowMerge(plan: try flowPlan(plan))
        try FlowLines.forEachLine(of: input) { line, number in
            for record in try FlowLines.readRecords(line, number: number).records {
                guard record.stages.contains(.merge) else {
                    throw DataflowError("line \(number): a record for \(record.stages.map(\.rawValue).sorted().joined(separator: " or ")) is not an input of the merge")
                }
                try merge.add(record)
            }
        }
        return try merge.finish(outDirectory: out, reproducible: reproducible)
    }

    /// The in-process plan of a plan file; the data folder must hold the files it lists.
    static func flowPlan(_ plan: Plan) throws -> FlowPlan {
        guard plan.format == "tally-plan", plan.version == 1 else {
            throw DataflowError("the plan is \(plan.format) version \(plan.version); this tally reads tally-plan version 1")
        }
        guard let period = YearMonth(plan.period) else { throw DataflowError("the plan's period '\(plan.period)' is not a month") }
        var request = RunRequest(dataDirectory: URL(fileURLWithPath: plan.data), outDirectory: URL(fileURLWithPath: plan.data),
                                 period: period, configURL: plan.config.map { URL(fileURLWithPath: $0) }, timezone: plan.timezone)
        if let text = plan.configText {
            request.configText = (file: plan.config.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "tally.yml", text: text)
        }
        var flow = try flowPlan(request, asOf: plan.asOf.flatMap { LocalDate.parse($0) })
        flow.outDirectory = URL(fileURLWithPath: plan.out)
        flow.sourceLines = plan.sourceLines ?? [:]
        let files = flow.files.map(\.relativePath)
        guard files == plan.files else {
            throw DataflowError("the data folder \(plan.data) changed since the plan was made (\(files.count) input files now, \(plan.files.count) planned): make the plan again")
        }
        return flow
    }

    private static func flowPlan(_ request: RunRequest, asOf: LocalDate?) throws -> FlowPlan {
        let runner = TallyRunner(logger: Logger(label: "tally"), progress: Progress(mode: .silent))
        return try FlowPlan(data: request.dataDirectory!, config: try runner.configuration(request), period: request.period!,
                            asOf: asOf)
    }
}

/// A dataflow process that cannot do its part, with why.
public struct DataflowError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
