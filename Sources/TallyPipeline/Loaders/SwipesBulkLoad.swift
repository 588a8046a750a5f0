import TallyIngest
import TallyWarehouse

/// Loads a swipes file on two cores: the reading thread inflates, parses,
/// decodes and stages the swipes (user numbers, the id filter); the
/// writer stores each batch. Rejects and their reasons are those of the
/// row-by-row path (`IngestStage.loadTable`).
///
/// Measured at medium scale (10M swipes): reading and staging are about two
/// thirds of the load's CPU and SQLite one third, so overlapping them takes
/// the load from one core's sum to roughly the reading side alone.
enum SwipesBulkLoad {
    static let batchRows = 8192

    @Sendable static func load(_ reader: TableReader, _ fields: [String], _ fileId: Int64,
                               _ session: IngestSession, _ sink: LoadSink) throws -> Int {
        let stager = try session.swipeStager()
        let idIndex = fields.firstIndex(of: "id")
        var rejected = 0
        try BatchPipeline.run(produce: { emit in
            var batch = SwipeBatch()
            try reader.read { event in
                switch event {
                case .malformed(let line, let reason):
                    batch.rejects.append((line, "", reason))
                case .record(let view):
                    do {
                        stager.stage(try KPIDecoders.swipe(FieldDecoder(view: view, fields: fields)), line: view.line, into: &batch)
                    } catch let error as FieldError {
                        batch.rejects.append((view.line, idIndex.flatMap { view.string($0) } ?? "", error.reason))
                    }
                }
                if batch.size >= batchRows {
                    batch.progress = (reader.bytesConsumed, reader.recordsRead)
                    try emit(batch)
                    batch = SwipeBatch()
                }
            }
            batch.progress = (reader.bytesConsumed, reader.recordsRead)
            try emit(batch)
        }, consume: { (batch: SwipeBatch) in
            try session.store(batch, file: fileId)
            for reject in batch.rejects { try sink.reject(reject.line, reject.id, reject.reason) }
            rejected += batch.rejects.count
            sink.progress(batch.progress.bytes, batch.progress.records)
        })
        return rejected
    }
}
