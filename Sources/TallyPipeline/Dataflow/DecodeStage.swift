import Foundation
import TallyCore
import TallyIngest
import TallyWire

/// The first stage of a dataflow run: reads one input file (a task) and
/// emits each row it decodes, keyed by its table and key for ``RowsStage``;
/// a row that cannot be read or decoded is a reject (file, line, why), as
/// `tally run`'s ingest words it.
///
/// A file refused as a whole (a header without a column every row needs,
/// UTF-16, a corrupt gzip) emits only its refusal: a refusal found late
/// drops every row emitted before it. ``run(file:emit:)`` holds the rows in
/// memory until the file is read to its end; a worker process holds them in
/// a file on disk instead (``DataflowProcesses``), with ``read(file:emit:)``.
struct DecodeStage {
    let plan: FlowPlan

    /// Reads file `seq` of the plan, holding its rows until it is read to its end.
    func run(file seq: Int, emit: FlowEmit) throws {
        var held: [(FlowStageName, [UInt8], FlowRecord)] = []
        guard let read = try read(file: seq, emit: { held.append(($0, $1, $2)) }) else { return }
        if read.refusal == nil {
            for (stage, key, record) in held { emit(stage, key, record) }
        }
        emit(.merge, FlowKeys.file(seq), .fileRead(read))
    }

    /// Reads file `seq` of the plan, handing each row and reject to `emit` as
    /// it is read, and returns what reading gave (nil for a file no reader
    /// takes). When it comes back refused, the caller drops what was emitted
    /// and sends only the ``FileRead`` on (to the merge, keyed by the file).
    func read(file seq: Int, emit: FlowEmit) throws -> FileRead? {
        let file = plan.file(seq)
        if file.isParquet {
            throw DataflowError("\(file.relativePath) is Parquet: its rows come from the engine that reads it (the Spark job), and none came")
        }
        if let table = file.table {
            return try Self.read(file, seq: seq, table: table, emit: emit)
        } else if case .appleHealthExport(let userId) = file.kind {
            return try ExportDecoding.appleHealth(file, seq: seq, userId: userId, timezone: plan.timezone, emit: emit)
        } else if file.kind == .appStoreConnectReport {
            return try KPITables.readAppStoreReport(file, seq: seq, emit: emit)
        }
        return nil
    }

    /// Reads file `seq` of the plan from the rows an engine read from it (a
    /// Parquet part): `columns` as the engine listed them, and the rows, one
    /// JSON object per line, in the file's order, in the NDJSON file `rows`.
    /// Rows are numbered from 1, as lines; the size and SHA-256 are those of
    /// the rows' JSON lines; the columns decide the refusal and the unknown
    /// fields as a CSV header does.
    func read(file seq: Int, columns: [String], rows: URL, emit: FlowEmit) throws -> FileRead {
        let file = plan.file(seq)
        guard file.isParquet, let table = file.table else {
            throw DataflowError("\(file.relativePath): rows came from the engine for a file tally reads itself")
        }
        let check = TableReader.columnsCheck(columns, fields: table.fields, required: table.requiredFields)
        if let refusal = check.refusal {
            return FileRead(file: seq, rowsRead: 0, bytes: Self.size(of: rows), sha256: "", unknownFields: check.unknown,
                            refusal: refusal)
        }
        let spooled = InputFile(url: rows, relativePath: file.relativePath, kind: file.kind, isPart: file.isPart)
        var read = try Self.read(spooled, seq: seq, table: table, emit: emit)
        read.unknownFields = check.unknown
        return read
    }

    /// Reads file `seq` of the plan from `lines`, the lines an engine wrote
    /// for it (its `source-columns` line and its `source-row` lines, in any
    /// order), as ``read(file:columns:rows:emit:)`` reads them.
    func read(file seq: Int, sourceLines lines: [String], emit: FlowEmit) throws -> FileRead {
        let path = plan.file(seq).relativePath
        let key = FlowLines.keyField(of: plan.taskKey(of: seq))
        var rows: SourceRows?
        defer { rows?.discard() }
        for (number, line) in lines.map({ Array($0.utf8) }).sorted(by: { $0.lexicographicallyPrecedes($1) }).enumerated() {
            let (record, field) = try line.withUnsafeBufferPointer { buffer in
                (try FlowLines.read(buffer, number: number + 1).record, Array(FlowLines.keyField(buffer)))
            }
            guard field == key else { throw DataflowError("\(path): the plan's line \(number + 1) for it is keyed to another file") }
            do {
                guard try SourceRows.take(record, into: &rows, line: number + 1) else {
                    throw DataflowError("line \(number + 1) is not a source-columns or source-row line")
                }
            } catch {
                throw DataflowError("\(path), the plan's lines for it: \(error)")
            }
        }
        guard let rows else { throw DataflowError("\(path): the plan's lines for it have no source-columns line") }
        try rows.finish()
        return try read(file: seq, columns: rows.columns, rows: rows.url, emit: emit)
    }

    /// Reads `file` (sequence number `seq`, a file of `table`), handing each
    /// decoded row and each reject to `emit`; returns what reading gave.
    static func read(_ file: InputFile, seq: Int, table: TableID, emit: FlowEmit) throws -> FileRead {
        var outcome = FileRead(file: seq, rowsRead: 0, bytes: 0, sha256: "", unknownFields: [], refusal: nil)
        let reader: TableReader
        do {
            reader = try TableReader(url: file.url, fields: table.fields, maxRecordBytes: IngestStage.maxRecordBytes,
                                     fingerprinting: true)
        } catch {
            outcome.refusal = error.reason
            outcome.bytes = Self.size(of: file.url)
            return outcome
        }
        if let reason = reader.headerRefusal(required: table.requiredFields) {
            outcome.refusal = reason
            outcome.bytes = Self.size(of: file.url)
            return outcome
        }
        let fields = table.fields
        let idIndex = fields.firstIndex(of: "id")
        func reject(_ line: Int, _ id: String, _ reason: RejectReason) {
            emit(.merge, FlowKeys.file(seq), .reject(Reject(dataset: file.dataset, file: file.relativePath, line: line,
                                                            id: id, reason: reason)))
        }
        do {
            try reader.read { event in
                switch event {
                case .malformed(let line, let reason):
                    reject(line, "", reason)
                case .record(let view):
                    let decoder = FieldDecoder(view: view, fields: fields)
                    let rawId = idIndex.flatMap { view.string($0) } ?? ""
                    switch Result(catching: { () throws(FieldError) in
                        try FlowTables.decode(table, decoder, origin: RowOrigin(file: seq, line: view.line), rawId: rawId)
                    }) {
                    case .success(let (stage, key, record)): emit(stage, key, record)
                    case .failure(let error):
                        reject(view.line, rawId, error.why)
                        // A couple's row that could not be decoded goes to its couple's statement too.
                        if let refused = RefusedRows.row(decoder, reason: error.why), let couple = refused.written.coupleId {
                            emit(.couples, FlowKeys.entity(couple), .refusedRow(refused))
                        }
                    }
                }
            }
        } catch {
            guard let reason = FileRefusal.reason(for: error, path: file.relativePath) else { throw error }
            outcome.refusal = reason
            outcome.bytes = Self.size(of: file.url)
            return outcome
        }
        outcome.rowsRead = reader.recordsRead
        outcome.unknownFields = reader.unknownFields
        let fingerprint = try reader.fingerprint ?? FileFingerprint.of(url: file.url)
        outcome.bytes = fingerprint.bytes
        outcome.sha256 = fingerprint.sha256
        return outcome
    }

    /// A file's size on disk (0 when it cannot be read: its reader then says why).
    static func size(of url: URL) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
