import TallyIngest
import TallyWarehouse

/// Loads a swipes file on two cores (``PipelinedLoad``): the reading thread
/// parses, decodes and stages the swipes (user numbers, the id filter:
/// ``SwipeStager``; a gzip file is inflated ahead on a thread of its own,
/// ``TallyIngest/ReadAheadByteSource``), the writer stores each batch.
///
/// Measured at medium scale (10M swipes, per-thread CPU of a swipes-only
/// load): reading and staging ~6.3 s of one core, SQLite's appends ~6 s,
/// inflating ~2.5 s (ISA-L); overlapped, the file loads in ~8.5–9 s.
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
