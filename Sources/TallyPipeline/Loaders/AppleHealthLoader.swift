import TallyCore
import TallyIngest
import TallyWarehouse

/// Loads `health/<userId>/export.zip|xml`: streams the export and stores
/// each step, energy and distance record as read (start instant, quantity,
/// source, value), independent of any time zone. The activity derivation
/// sums them into the report zone's local days (`ExportDays` in
/// TallyWarehouse), so a run in another zone reloads nothing.
///
/// Accounting: the records of those three quantities are the file's rows
/// read; one with an unknown unit, a bad value or date is rejected with its
/// line; the others are used.
struct AppleHealthLoader: ExportLoader {
    var limits = AppleHealthExportReader.Limits()

    func load(_ file: InputFile, fileId: Int64, session: IngestSession, sink: LoadSink) throws -> (read: Int, rejected: Int) {
        guard case .appleHealthExport(let userId) = file.kind else { preconditionFailure("not an Apple Health export") }
        let reader = AppleHealthExportReader(url: file.url, displayPath: file.relativePath, limits: limits)
        var read = 0
        var rejected = 0
        _ = try reader.read(progress: { sink.progress($0, read) }) { event in
            read += 1
            switch event {
            case .record(let r):
                try session.insertHealthRecord(userId: userId, start: r.startDate, quantity: r.quantity, source: r.sourceName,
                                               value: r.value, file: fileId)
            case .invalid(let line, let reason):
                rejected += 1
                try sink.reject(line, "", reason, nil)
            }
        }
        return (read, rejected)
    }
}
