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

/// Decoded records with the line each came from and, for tables whose key
/// may repeat within a file, the row's id for the duplicate reject.
struct StagedRecords<Record: Sendable>: StagedRows {
    var records: [(record: Record, line: Int, id: String?)] = []
    var count: Int { records.count }
}

/// Loads a table file on two cores (``BatchPipeline``): the reading thread
/// reads, decodes and stages rows in batches; the writer stores each batch.
/// Rejects carry the same lines, ids and reasons as a row-by-row load
/// (`IngestStage.loadTable`), in the same order.
enum PipelinedLoad {
    typealias Reject = (line: Int, id: String, reason: String)
    static let batchRows = 8192

    /// What crosses from the reading thread to the writer.
    struct Batch<Rows: StagedRows>: Sendable {
        var rows = Rows()
        var rejects: [Reject] = []
        var progress: (bytes: Int64, records: Int) = (0, 0)
    }

    /// Reads `reader` through `stage` (reading thread; `seal` finishes each
    /// batch there before it is handed over) and `store` (this thread;
    /// returns rows it refused, e.g. a key repeated in the file).
    /// Returns the rows rejected.
    static func run<Rows: StagedRows>(_ reader: TableReader, fields: [String], sink: LoadSink,
                                      stage: @escaping (inout Rows, FieldDecoder) throws(FieldError) -> Void,
                                      seal: @escaping (inout Rows) -> Void = { _ in },
                                      store: (Rows) throws -> [Reject]) throws -> Int {
        let idIndex = fields.firstIndex(of: "id")
        var rejected = 0
        try BatchPipeline.run(produce: { emit in
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
                    batch.rejects.append((line, "", reason))
                case .record(let view):
                    do {
                        try stage(&batch.rows, FieldDecoder(view: view, fields: fields))
                    } catch let error as FieldError {
                        batch.rejects.append((view.line, idIndex.flatMap { view.string($0) } ?? "", error.reason))
                    }
                }
                if batch.rows.count + batch.rejects.count >= batchRows { try send() }
            }
            try send()
        }, consume: { (batch: Batch<Rows>) in
            let refused = try store(batch.rows)
            // Rejects in line order, as a row-by-row load stores them.
            for reject in (batch.rejects + refused).sorted(by: { $0.line < $1.line }) {
                try sink.reject(reject.line, reject.id, reject.reason)
            }
            rejected += batch.rejects.count + refused.count
            sink.progress(batch.progress.bytes, batch.progress.records)
        })
        return rejected
    }
}

extension TableLoader {
    /// A loader that decodes records (owned values) on the reading thread and
    /// stores them on the writer; `store` returns false when the record's key
    /// repeats within the file (set `keysMayRepeat` so the reject names its id).
    static func pipelined<Record: Sendable>(
        decode: @escaping @Sendable (FieldDecoder) throws(FieldError) -> Record,
        keysMayRepeat: Bool = false, keyDescription: String = "id",
        store: @escaping @Sendable (Record, IngestSession, _ fileId: Int64, _ line: Int) throws -> Bool
    ) -> TableLoader {
        var loader = TableLoader(store: { _, _, _ in true }, keyDescription: keyDescription)
        let duplicate = loader.duplicateReason
        loader = TableLoader(
            store: { f, session, fileId in try store(decode(f), session, fileId, f.line) },
            keyDescription: keyDescription,
            bulk: { reader, fields, fileId, session, sink in
                let idIndex = fields.firstIndex(of: "id")
                return try PipelinedLoad.run(reader, fields: fields, sink: sink, stage: { (rows: inout StagedRecords<Record>, f) throws(FieldError) in
                    rows.records.append((try decode(f), f.line, keysMayRepeat ? idIndex.flatMap { f.view.string($0) } ?? "" : nil))
                }, store: { rows in
                    var refused: [PipelinedLoad.Reject] = []
                    for (record, line, id) in rows.records where try !store(record, session, fileId, line) {
                        refused.append((line, id ?? "", duplicate))
                    }
                    return refused
                })
            })
        return loader
    }
}
