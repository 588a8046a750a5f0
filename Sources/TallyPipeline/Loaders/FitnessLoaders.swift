import TallyCore
import TallyIngest
import TallyWarehouse

/// Loaders of the `checkins/` tables (FitToday) and `health/activity` (FypMatch).
enum FitnessLoaders {
    static let tables: [TableID: TableLoader] = [
        .challenges: TableLoader { f, s, file in try s.insert(FitnessDecoders.challenge(f), file: file, line: f.line) },
        .groupMembers: TableLoader(store: { f, s, file in try s.insert(FitnessDecoders.groupMember(f), file: file, line: f.line) },
                                   keyDescription: "membership (same groupId, userId and joinedAt)"),
        // Appended to a log; an id repeated within the file is rejected once the file is read.
        .checkins: TableLoader(store: { f, s, file in
            try s.insert(FitnessDecoders.checkinFields(f), file: file, line: f.line)
            return true
        }, removeRepeats: { s, file in try s.removeRepeatedCheckins(file: file) }, bulk: { reader, fields, file, session, sink in
            // Read, decoded and staged as bytes on the reading thread; stored 64 rows to a statement.
            try PipelinedLoad.run(reader, fields: fields, sink: sink, stage: { (rows: inout RowBatch, f) throws(FieldError) in
                IngestSession.stage(try FitnessDecoders.checkinFields(f), line: f.line, into: &rows)
            }, store: { rows in
                try session.store(checkins: rows, file: file)
                return []
            })
        }),
        // Every valid row is stored; the last one per user and day wins when the ingest ends.
        .activity: .pipelined(decode: HealthDecoders.activity) { record, s, file, line in
            try s.insert(record, file: file, line: line)
            return true
        },
    ]
}
