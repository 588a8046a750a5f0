import Foundation
import TallyCore
import TallyIngest
import TallyWire

/// Key: a user and a day. Of the rows claiming the day (`health/activity`
/// rows, days of Apple Health exports), ``ActivityDayRule`` picks the one
/// that counts; a superseded `health/activity` row is counted against its
/// file. The counted day goes on to its user when it falls in the period.
struct DaysStage {
    let plan: FlowPlan

    func run(_ records: [FlowRecord], emit: FlowEmit) {
        let outcomes = WhichRowsCount.sort(records, by: ActivityDayRule()) { _, record in
            switch record {
            case .activityRow(_, let origin):
                return ActivityDayRule.Row(fromExport: false, loadSeq: Int64(origin.file), line: Int64(origin.line))
            case .exportDay(_, let file):
                return ActivityDayRule.Row(fromExport: true, loadSeq: Int64(file), line: 0)
            default:
                preconditionFailure("not a user's day: \(record)")
            }
        }
        for loser in outcomes.superseded {
            if case .activityRow(_, let origin) = loser {
                plan.emitSuperseded(origin, emit)
            }
        }
        let day: DailyActivity
        switch outcomes.counted.first {
        case .activityRow(let d, _), .exportDay(let d, _): day = d
        default: preconditionFailure("not a user's day")
        }
        if ActivityFamily.window(plan.period).contains(day.date) {
            emit(.users, FlowKeys.entity(day.userId), .userDay(day))
        }
    }
}

/// Key: a user. The user's counted days of the period are computed by
/// ``ActivityKeys``, like every user of every transport.
struct UsersStage {
    func run(key: [UInt8], _ records: [FlowRecord], emit: FlowEmit) {
        let days = records.map { record -> DailyActivity in
            guard case .userDay(let d) = record else { preconditionFailure("not a user's day: \(record)") }
            return d
        }
        emit(.merge, key, .activity(ActivityKeys().compute(userId: String(decoding: key, as: UTF8.self), days: days)))
    }
}

/// Decodes the exports that are not contract tables.
enum ExportDecoding {
    /// Reads an Apple Health export of `userId`: each record of steps,
    /// energy or distance is a row read; an invalid one is a reject; the
    /// valid ones are summed per local day of the report zone, in the
    /// export's order (``DailySourceTotals``), and each day goes to the
    /// user's day for ``ActivityDayRule``.
    static func appleHealth(_ file: InputFile, seq: Int, userId: String, timezone: ReportTimeZone,
                            emit: FlowEmit) throws -> FileRead {
        var outcome = FileRead(file: seq, rowsRead: 0, bytes: 0, sha256: "", unknownFields: [], refusal: nil)
        let fingerprint: (bytes: Int64, sha256: String)
        do {
            fingerprint = try FileFingerprint.of(url: file.url)
        } catch {
            outcome.refusal = error.reason
            return outcome
        }
        outcome.bytes = fingerprint.bytes
        outcome.sha256 = fingerprint.sha256
        let reader = AppleHealthExportReader(url: file.url, displayPath: file.relativePath)
        var totals = DailySourceTotals()
        var read = 0
        var rejects: [Reject] = []
        var any = false
        do {
            _ = try reader.read { event in
                read += 1
                switch event {
                case .record(let r):
                    any = true
                    totals.add(r.quantity, value: r.value, day: timezone.localDate(of: r.startDate), source: r.sourceName)
                case .invalid(let line, let reason):
                    rejects.append(Reject(dataset: file.dataset, file: file.relativePath, line: line, id: "", reason: reason))
                }
            }
        } catch {
            guard let reason = FileRefusal.reason(for: error, path: file.relativePath) else { throw error }
            outcome.refusal = reason
            return outcome
        }
        outcome.rowsRead = read
        for reject in rejects { emit(.merge, FlowKeys.file(seq), .reject(reject)) }
        if any {
            for day in totals.days(userId: userId) {
                emit(.days, FlowKeys.userDay(userId, day.date), .exportDay(day, file: seq))
            }
        }
        return outcome
    }
}
