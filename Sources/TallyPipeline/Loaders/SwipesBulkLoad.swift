import TallyIngest
import TallyWarehouse

/// Loads a swipes file on two cores (``PipelinedLoad``): the reading thread
/// inflates, parses, decodes and stages the swipes (user numbers, the id
/// filter: ``SwipeStager``), the writer stores each batch.
///
/// Measured at medium scale (10M swipes): reading and staging are about
/// 40% of the load's CPU and SQLite 60%, so overlapping them takes the load
/// from the sum of the two to roughly the writer's share.
enum SwipesBulkLoad {
    @Sendable static func load(_ reader: TableReader, _ fields: [String], _ fileId: Int64,
                               _ session: IngestSession, _ sink: LoadSink) throws -> Int {
        let stager = try session.swipeStager()
        return try PipelinedLoad.run(reader, fields: fields, sink: sink, stage: { (rows: inout SwipeBatch, f) throws(FieldError) in
            stager.stage(try KPIDecoders.swipe(f), line: f.line, into: &rows)
        }, seal: { rows in
            stager.seal(&rows)
        }, store: { rows in
            try session.store(rows, file: fileId)
            return []
        })
    }
}
