import TallyCore
import TallyIngest
import TallyWarehouse

/// Loads `health/<userId>/export.zip|xml`: streams the export, sums its
/// step, energy and distance records per local day and source (report time
/// zone), and stores one day row per date with the largest per-source sum
/// of each quantity.
///
/// Accounting: the records of those three quantities are the file's rows
/// read; one with an unknown unit, a bad value or date is rejected with its
/// line; the others are used.
struct AppleHealthLoader: ExportLoader {
    let timezone: ReportTimeZone
    var limits = AppleHealthExportReader.Limits()

    func load(_ file: InputFile, fileId: Int64, session: IngestSession, sink: LoadSink) throws -> (read: Int, rejected: Int) {
        guard case .appleHealthExport(let userId) = file.kind else { preconditionFailure("not an Apple Health export") }
        let reader = AppleHealthExportReader(url: file.url, displayPath: file.relativePath, limits: limits)
        var totals = DailySourceTotals()
        var read = 0
        var rejected = 0
        _ = try reader.read(progress: { sink.progress($0, read) }) { event in
            read += 1
            switch event {
            case .record(let r):
                totals.add(r.quantity, value: r.value, day: timezone.localDate(of: r.startDate), source: r.sourceName)
            case .invalid(let line, let reason):
                rejected += 1
                try sink.reject(line, "", reason)
            }
        }
        for day in totals.days(userId: userId) { try session.insertExportDay(day, file: fileId, timezone: timezone.identifier) }
        return (read, rejected)
    }
}
