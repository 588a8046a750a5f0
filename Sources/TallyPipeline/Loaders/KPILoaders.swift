import TallyCore
import TallyIngest
import TallyWarehouse

/// Loaders of the `swipes/` (FypMatch) and `subscriptions/` (FisioFlow, LovU,
/// FypMatch) tables.
enum KPILoaders {
    static let tables: [TableID: TableLoader] = [
        .swipeUsers: .keyed(decode: KPIDecoders.swipeUser) { r, s, file, line in try s.insert(r, file: file, line: line) },
        // A repeated id is stored once and counted as superseded (see SwipeLogSchema).
        .swipes: TableLoader(load: SwipesBulkLoad.load),
        .products: .keyed(keyDescription: "productId", decode: KPIDecoders.product) { r, s, file, line in
            try s.insert(r, file: file, line: line)
        },
        // A repeated id within a file is a reject, found after the load (see SubscriptionLogSchema.events).
        .events: .staged(stage: { f, rows throws(FieldError) in
            IngestSession.stage(try KPIDecoders.eventFields(f), into: &rows)
        }, store: { rows, s, file in try s.store(events: rows, file: file) }),
        .connections: .keyed(keyDescription: "connection (same userId, partnerId and connectedAt)",
                             decode: KPIDecoders.connection) { r, s, file, line in try s.insert(r, file: file, line: line) },
    ]
}

/// Loads an App Store Connect report: Subscriber report rows as subscription
/// events, Subscription Event report rows as daily event counts.
struct AppStoreConnectLoader: ExportLoader {
    func load(_ file: InputFile, fileId: Int64, session: IngestSession, sink: LoadSink) throws -> (read: Int, rejected: Int) {
        let reader = try AppStoreConnectReader(url: file.url, displayPath: file.relativePath)
        var rejected = 0
        try reader.read { row in
            switch row {
            case .event(let record):
                // A repeated id is a reject found after the load (see SubscriptionLogSchema.events).
                try session.insert(record, file: fileId, line: record.event.source?.line ?? 0)
            case .count(let count, let line):
                try session.insert(count, file: fileId, line: line)
            case .malformed(let line, let id, let reason):
                rejected += 1
                try sink.reject(line, id, reason, nil)
            }
            if reader.recordsRead % 4096 == 0 { sink.progress(0, reader.recordsRead) }
        }
        return (reader.recordsRead, rejected)
    }
}
