/// The subscription KPIs' monthly series (churn, MRR history, movements,
/// revenue and active users, shared premium) start at a first month that depends on every event: the
/// month of the earliest one (or 24 months before the period, whichever is
/// later). Partitions computed apart cannot know it, so they count under
/// the earliest first month the run allows, and the merged result is
/// narrowed to the real one before it is finalised.
///
/// Narrowing is exact: each month of the series is counted from the states
/// at its own start and end and from its own events, so the months kept
/// hold the same counts whatever month the series started at, and the
/// months dropped are simply no longer listed.
///
/// ```swift
/// let wide = KPIsFamily(settings: settings)        // first month: 24 months before the period
/// var summary = wide.emptySummary()
/// for partition in partitions { wide.add(partition, to: &summary) }
/// var narrow = settings
/// narrow.subscriptions.firstMonth = YearMonth("2026-03")!   // the earliest event's month
/// let report = KPIsFamily(settings: narrow).finalise(summary.narrowed(to: narrow)!)
/// ```
extension SubscriptionKPIs.State {
    /// The counts as if the series had started at `firstMonth` (no earlier
    /// than it starts now, no later than the period): months before it are
    /// dropped, with the users paid in none of the months left.
    public func narrowed(to firstMonth: YearMonth) -> SubscriptionKPIs.State {
        let first = Swift.max(self.firstMonth, Swift.min(firstMonth, period))
        var state = self
        state.firstMonth = first
        state.churns = churns.filter { $0.key.month >= first }
        state.cancellations = cancellations.filter { $0.key.month >= first }
        state.refunds = refunds.filter { $0.key.month >= first }
        state.mrr = mrr.filter { $0.key.month >= first }
        state.movements = movements.filter { $0.key.month >= first }
        state.revenues = revenues.filter { $0.key.month >= first }
        state.activeUsers = activeUsers.filter { $0.key.month >= first }
        state.sharingPaid = sharingPaid.compactMapValues { months in
            let kept = months.filter { $0 >= first }
            return kept.isEmpty ? nil : kept
        }
        return state
    }
}

extension SubscriptionKPIs {
    /// These KPIs as if counted under `settings`, which differ from this
    /// accumulator's only by a later first month (see ``SubscriptionKPIs/State/narrowed(to:)``);
    /// nil for settings that differ otherwise or start the series earlier.
    public func narrowed(to settings: Settings) -> SubscriptionKPIs? {
        guard settings.firstMonth >= self.settings.firstMonth else { return nil }
        return SubscriptionKPIs(settings: settings, catalog: catalog, state: state.narrowed(to: settings.firstMonth))
    }
}

extension KPIsFamily.Summary {
    /// This summary as if its subscribers had been counted under `settings`
    /// (a later first month of the series, the rest alike); nil otherwise.
    public func narrowed(to settings: KPIsFamily.Settings) -> KPIsFamily.Summary? {
        guard let subscriptions = subscriptions.narrowed(to: settings.subscriptions) else { return nil }
        var narrowed = self
        narrowed.subscriptions = subscriptions
        return narrowed
    }
}

extension KPIsFamily {
    /// The most months the monthly series (churn, MRR history, movements) go back.
    public static let seriesMonths = 24

    /// The first month of the monthly series: the local month of the
    /// earliest counted subscription event (the period when there is none),
    /// at most ``seriesMonths`` before the period's end.
    public static func firstMonth(of firstEvent: Timestamp?, period: YearMonth, timezone tz: ReportTimeZone) -> YearMonth {
        max(firstEvent.map { tz.localDate(of: $0).yearMonth } ?? period, earliestFirstMonth(period))
    }

    /// The earliest month the monthly series of `period` can start at.
    public static func earliestFirstMonth(_ period: YearMonth) -> YearMonth { period.adding(months: -(seriesMonths - 1)) }

    /// The instants whose swipes and matches the KPIs count: from the start
    /// of the month before `period` to the end of `period`, in `tz`. The
    /// warehouse scans this range and the dataflow routes the swipes in it;
    /// neither decides it.
    public static func swipeWindow(_ period: YearMonth, _ tz: ReportTimeZone) -> Range<Timestamp> {
        tz.startOfDay(period.adding(months: -1).firstDay)..<tz.endOfMonth(period)
    }
}
