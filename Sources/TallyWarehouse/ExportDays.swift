import GRDB
import TallyCore

/// The days of the Apple Health exports in the report time zone
/// (`health_export_day`), derived from their zone-free records
/// (`health_record`): each export's records, in the export's order, summed
/// per quantity, local day and source, a day's value the largest
/// per-source sum (``DailySourceTotals``).
///
/// The zone is the one the last ingest was given (`export_day_zone`;
/// ``IngestSession/useReportTimeZone(_:)``). Days of another zone are
/// deleted and every export without days in this zone is summed again;
/// the others are kept.
///
/// ```swift
/// try ExportDays.refresh(db)   // before the activity rows are judged
/// ```
enum ExportDays {
    /// The zone used when no ingest named one (``TallyConfig/timezone``'s default).
    static var defaultZone: String { TallyConfig().timezone }

    /// The stored code of each quantity in `health_record.quantity`.
    static func code(_ quantity: HealthQuantity) -> Int64 {
        switch quantity {
        case .steps: return 1
        case .activeEnergy: return 2
        case .walkingDistance: return 3
        }
    }

    static func quantity(code: Int64) -> HealthQuantity? {
        switch code {
        case 1: return .steps
        case 2: return .activeEnergy
        case 3: return .walkingDistance
        default: return nil
        }
    }

    /// The zone the export days are derived in.
    static func zone(_ db: Database) throws -> String {
        try String.fetchOne(db, sql: "SELECT timezone FROM export_day_zone") ?? defaultZone
    }

    /// Brings `health_export_day` to the stored zone.
    static func refresh(_ db: Database) throws {
        let identifier = try zone(db)
        guard let zone = ReportTimeZone(identifier: identifier) else {
            throw DatabaseError(message: "the stored report time zone '\(identifier)' is not an IANA time zone")
        }
        try db.execute(sql: "DELETE FROM health_export_day WHERE timezone <> ?", arguments: [identifier])
        let exports = try Int64.fetchAll(db, sql: """
            SELECT f.id FROM input_file f
            WHERE f.table_name = 'appleHealthExport'
              AND NOT EXISTS (SELECT 1 FROM health_export_day d WHERE d.file_id = f.id)
            ORDER BY f.id
            """)
        let records = try RawCursor(db, sql: """
            SELECT user_id, start_us, quantity, source, value FROM health_record WHERE file_id = ? ORDER BY rowid
            """)
        let insert = try BulkStatement(db, sql: """
            INSERT INTO health_export_day (user_id, date, steps, active_calories, walking_km, timezone, file_id)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        var sources = StringCache()
        for file in exports {
            var totals = DailySourceTotals()
            var user: String?
            try records.forEach(file) { c in
                if user == nil { user = c.string(0) }
                guard let kind = Self.quantity(code: c.int64(2)) else { return }
                totals.add(kind, value: c.double(4), day: zone.localDate(of: Timestamp(microseconds: c.int64(1))),
                           source: sources.string(c.bytes(3) ?? UnsafeRawBufferPointer(start: nil, count: 0)))
            }
            guard let user else { continue }
            for day in totals.days(userId: user) {
                insert.bind(1, user); insert.bind(2, day.date.description); insert.bind(3, day.steps)
                insert.bind(4, day.activeCalories); insert.bind(5, day.walkingDistanceKm); insert.bind(6, identifier)
                insert.bind(7, file)
                try insert.step()
            }
            sources.removeAll()
        }
    }
}
