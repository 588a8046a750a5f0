extension Warehouse {
    /// Names the report time zone for a run that loads nothing (`tally
    /// report`), as an ingest does before loading: when it differs from the
    /// zone the Apple Health export days were derived in, their derivation is
    /// left pending, so the run's reports count days in `identifier` without
    /// reloading any export (see ``IngestSession/useReportTimeZone(_:)``).
    ///
    /// ```swift
    /// try warehouse.useReportTimeZone("Asia/Tokyo")
    /// try warehouse.pendingDerivations()   // [.activityRepeats] when the zone changed
    /// ```
    public func useReportTimeZone(_ identifier: String) throws {
        try ingestLeavingDerivations { try $0.useReportTimeZone(identifier) }
    }
}
