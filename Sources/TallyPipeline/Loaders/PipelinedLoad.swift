import TallyCore
import TallyIngest
import TallyWarehouse

/// Rows decoded on the reading thread, waiting to be stored.
protocol StagedRows: Sendable {
    init()
    /// The rows staged.
    var count: Int { get }
}

extension SwipeBatch: StagedRows {}
extension RowBatch: StagedRows {}

/// Loads a table file on two cores (``BatchPipeline``): the reading thread
/// reads, decodes and stages rows in batches; the writer stores each batch.
/// Rejects come in line order, each with its line, the record's id and the reason.
enum PipelinedLoad {
    typealias Reject = (line: Int, id: String, reason: RejectReason, refused: RefusedRow?)
    static let batchRows = 8192

    /// What crosses from the reading thread to the writer.
    struct Batch<Rows: StagedRows>: Sendable {
        var rows = Rows()
        var rejects: [Reject] = []
        var progress: (bytes: Int64, records: Int) = (0, 0)
    }

    /// Reads `reader` through `stage` (reading thread; `seal` finishes each
    /// batch there before it is handed over) and `store` (the writer thread,
    /// through `sink.onWriter`), which returns the staged rows it rejects
    /// (a keyed table's repeats within the file; none for a log, whose
    /// repeats are settled after the file or the ingest). Returns the rows
    /// rejected (unreadable, undecodable or refused by `store`).
    static func run<Rows: StagedRows>(_ reader: TableReader, fields: [String], sink: LoadSink, depth: Int = 4,
                                      stage: @escaping (inout Rows, FieldDecoder) throws(FieldError) -> Void,
                                      seal: @escaping (inout Rows) -> Void = { _ in },
                                      store: (Rows) throws -> [Reject]) throws -> Int {
        let idIndex = fields.firstIndex(of: "id")
        var rejected = 0
        try BatchPipeline.run(depth: depth, produce: { emit in
            var batch = Batch<Rows>()
            func send() throws {
                batch.progress = (reader.bytesConsumed, reader.recordsRead)
                seal(&batch.rows)
                try emit(batch)
                batch = Batch<Rows>()
            }
            try reader.read { event in
                switch event {
                case .malformed(let line, let reason):
                    batch.rejects.append((line, "", reason, nil))
                case .record(let view):
                    let decoder = FieldDecoder(view: view, fields: fields)
                    do {
                        try stage(&batch.rows, decoder)
                    } catch let error as FieldError {
                        batch.rejects.append((view.line, idIndex.flatMap { view.string($0) } ?? "", error.why,
                                              RefusedRows.row(decoder, reason: error.why)))
                    }
                }
                if batch.rows.count + batch.rejects.count >= batchRows { try send() }
            }
            try send()
        }, consumeWaiting: { (batches: [Batch<Rows>]) in
            try sink.onWriter {
                for batch in batches {
                    let refused = try store(batch.rows)
                    rejected += batch.rejects.count + refused.count
                    // In line order (as read): the two lists are each in line order.
                    var (r, f) = (0, 0)
                    while r < batch.rejects.count || f < refused.count {
                        let fromRead = f == refused.count || (r < batch.rejects.count && batch.rejects[r].line < refused[f].line)
                        let reject = fromRead ? batch.rejects[r] : refused[f]
                        if fromRead { r += 1 } else { f += 1 }
                        try sink.reject(reject.line, reject.id, reject.reason, reject.refused)
                    }
                }
            }
            if let last = batches.last { sink.progress(last.progress.bytes, last.progress.records) }
        })
        return rejected
    }
}

extension TableLoader {
    /// A loader for an append-only log table: each record is decoded and
    /// staged as bytes (`stage`, pure) on the reading thread, and the writer
    /// appends each batch (`store`, 64 rows to a statement). Every valid row
    /// is kept; what repeats is settled after the file (`removeRepeats`) or
    /// after the ingest (a derivation).
    static func staged(
        stage: @escaping @Sendable (FieldDecoder, inout RowBatch) throws(FieldError) -> Void,
        store: @escaping @Sendable (RowBatch, IngestSession, _ fileId: Int64) throws -> Void,
        removeRepeats: (@Sendable (IngestSession, _ fileId: Int64) throws -> [(line: Int, id: String, reason: RejectReason)])? = nil
    ) -> TableLoader {
        TableLoader(
            load: { reader, fields, fileId, session, sink in
                try PipelinedLoad.run(reader, fields: fields, sink: sink, stage: { (rows: inout RowBatch, f) throws(FieldError) in
                    try stage(f, &rows)
                }, store: { rows in
                    try store(rows, session, fileId)
                    return []
                })
            }, removeRepeats: removeRepeats)
    }

    /// A loader for a keyed (reference) table: each record is decoded
    /// (`decode`, pure) on the reading thread, and the writer stores it
    /// (`store`: the session's insert, which applies the table's rule and
    /// returns false for a key repeated within the file), the repeats
    /// rejected in line order among the file's other rejects.
    static func keyed<Record: Sendable>(keyDescription: String = "id",
                                        decode: @escaping @Sendable (FieldDecoder) throws(FieldError) -> Record,
                                        store: @escaping @Sendable (Record, IngestSession, _ fileId: Int64, _ line: Int) throws -> Bool)
        -> TableLoader {
        let reason = ReferenceRowRule.repeatReason(key: keyDescription)
        return TableLoader(
            load: { reader, fields, fileId, session, sink in
                let idIndex = fields.firstIndex(of: "id")
                return try PipelinedLoad.run(reader, fields: fields, sink: sink, stage: { (rows: inout KeyedRows<Record>, f) throws(FieldError) in
                    rows.records.append(try decode(f))
                    rows.lines.append(f.line)
                    rows.ids.append(idIndex.flatMap { f.view.string($0) } ?? "")
                }, store: { rows in
                    var refused: [PipelinedLoad.Reject] = []
                    for i in rows.records.indices where try !store(rows.records[i], session, fileId, rows.lines[i]) {
                        refused.append((rows.lines[i], rows.ids[i], reason, nil))
                    }
                    return refused
                })
            }, keyDescription: keyDescription)
    }
}

/// A keyed table's records decoded on the reading thread, each with its
/// line and `id` field as read (what a repeat's reject names).
struct KeyedRows<Record: Sendable>: StagedRows {
    var records: [Record] = []
    var lines: [Int] = []
    var ids: [String] = []
    var count: Int { lines.count }
}
