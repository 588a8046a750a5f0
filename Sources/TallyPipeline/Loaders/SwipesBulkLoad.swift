import TallyIngest
import TallyWarehouse

/// Loads a swipes file on two cores (``PipelinedLoad``): the reading thread
/// inflates, parses, decodes and stages the swipes (user numbers, the id
/// filter: ``SwipeStager``), the writer stores each batch.
///
/// Measured at medium scale (10M swipes): reading, staging and sealing
/// (~10 s of one core) and SQLite's appends (~9–10 s) now take about as
/// long each, so overlapping them takes the load from their sum to about
/// either one (11–12 s on a quiet host).
///
/// Up to 32 staged batches (~35 MB) wait for the writer, and it stores all
/// those waiting in one turn: the writer also serves the other datasets'
/// lane (``WriterLanes``), whose batches take tens of milliseconds each
/// (8,192 check-ins of ~550 bytes), and with 4 batches stored one per turn
/// the swipes' reading thread measured ~0.2–0.4 of a core for most of the
/// medium load, waiting; now it keeps ~0.6 and both cores stay busy (loads
/// ~19.5 → ~17 s).
enum SwipesBulkLoad {
    @Sendable static func load(_ reader: TableReader, _ fields: [String], _ fileId: Int64,
                               _ session: IngestSession, _ sink: LoadSink) throws -> Int {
        var made: SwipeStager?
        try sink.onWriter { made = try session.swipeStager() }
        let stager = made!
        return try PipelinedLoad.run(reader, fields: fields, sink: sink, depth: 32, stage: { (rows: inout SwipeBatch, f) throws(FieldError) in
            stager.stage(try KPIDecoders.swipe(f), line: f.line, into: &rows)
        }, seal: { rows in
            stager.seal(&rows)
        }, store: { rows in try session.store(rows, file: fileId) })
    }
}
