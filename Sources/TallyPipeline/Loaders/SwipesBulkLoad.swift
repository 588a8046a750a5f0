import TallyIngest
import TallyWarehouse

/// Loads a swipes file on two cores (``PipelinedLoad``): the reading thread
/// parses, decodes and stages the swipes (user numbers, the id filter:
/// ``SwipeStager``; a gzip file is inflated ahead on a thread of its own,
/// ``TallyIngest/ReadAheadByteSource``), the writer stores each batch.
///
/// Reading and staging, storing, and inflating each take seconds of a core
/// at medium scale; overlapped, the file loads in about the time of the
/// longest.
///
/// Up to 32 staged batches (~35 MB) wait for the writer, and it stores all
/// those waiting in one turn: the writer also serves the other datasets'
/// lane (``WriterLanes``), whose batches take tens of milliseconds each
/// (8,192 check-ins of ~550 bytes). With a few batches stored one per turn
/// the swipes' reading thread would spend most of the load waiting; this
/// way both cores stay busy.
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
        }, store: { rows in
            try session.store(rows, file: fileId)
            return []
        })
    }
}
