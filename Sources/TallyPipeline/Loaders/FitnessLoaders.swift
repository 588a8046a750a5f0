import TallyCore
import TallyIngest
import TallyWarehouse

/// Loaders of the `checkins/` tables (FitToday) and `health/activity` (FypMatch).
enum FitnessLoaders {
    static let tables: [TableID: TableLoader] = [
        .challenges: .keyed(decode: FitnessDecoders.challenge) { r, s, file, line in try s.insert(r, file: file, line: line) },
        .groupMembers: .keyed(keyDescription: "membership (same groupId, userId and joinedAt)",
                              decode: FitnessDecoders.groupMember) { r, s, file, line in try s.insert(r, file: file, line: line) },
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
