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
        .checkins: .staged(stage: { f, rows throws(FieldError) in
            IngestSession.stage(try FitnessDecoders.checkinFields(f), line: f.line, into: &rows)
        }, store: { rows, s, file in try s.store(checkins: rows, file: file) },
        removeRepeats: { s, file in try s.removeRepeatedCheckins(file: file) }),
        // Every valid row is stored; the last one per user and day wins when the ingest ends.
        .activity: .staged(stage: { f, rows throws(FieldError) in
            IngestSession.stage(try HealthDecoders.activity(f), line: f.line, into: &rows)
        }, store: { rows, s, file in try s.store(activity: rows, file: file) }),
    ]
}
