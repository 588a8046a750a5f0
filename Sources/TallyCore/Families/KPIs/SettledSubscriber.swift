/// When a subscriber's KPI counts stop depending on the period, so that a
/// later run may take them as stored instead of reading the subscriber's
/// events again (the KPIs' per-key state).
///
/// A subscriber is *settled* as of a period when every one of its events
/// (counted or rejected) comes before the period's first instant, in the
/// report time zone, and it is not paid after its counted events (in
/// ``SubscriptionEventOrder``, as ``SubscriptionTimeline`` applies them).
/// Paid status changes only with an event, so such a subscriber is paid at
/// no instant from the period's start on: it adds nothing to the period or
/// to any later month (no churn, MRR, movement, revenue, activity,
/// cancellation, refund, paywall view or shared premium there; its
/// retention curve counts it unpaid in those months), and what it adds to
/// the earlier months, counted from each month's own states and events,
/// and to its cohorts does not change. So its counts under a later period
/// are its counts under this one, rebased (``SubscriptionKPIs/State/rebased(to:)``):
/// the months before the later series' first month dropped.
///
/// ```swift
/// if let month = family.settledMonth(partition, asOf: family.settings.period) {
///     // counted into the kept counts of the subscribers settled in `month`
/// }
/// ```
extension KPIsFamily {
    /// The local month of the subscriber's last event when `partition` is a
    /// subscriber settled as of `period`; nil otherwise (not settled, no
    /// events, or a partition of swipes or matches).
    public func settledMonth(_ partition: Partition, asOf period: YearMonth) -> YearMonth? {
        settledMonth(partition, periodStart: settings.subscriptions.timezone.startOfDay(period.firstDay))
    }

    /// ``settledMonth(_:asOf:)`` with the period's first instant worked out
    /// once by the caller (a run asks for every subscriber it reads).
    public func settledMonth(_ partition: Partition, periodStart start: Timestamp) -> YearMonth? {
        guard case let .subscriber(_, _, events, _) = partition, var last = events.first?.timestamp else { return nil }
        // The timeline's order: by time, stable (the warehouse gives events in it already).
        let inOrder = zip(events, events.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp }
        var state = SubscriptionState.none
        for event in inOrder ? events : events.enumerated().sorted(by: { a, b in
            a.element.timestamp != b.element.timestamp ? a.element.timestamp < b.element.timestamp : a.offset < b.offset
        }).map(\.element) {
            guard event.timestamp < start else { return nil }
            last = Swift.max(last, event.timestamp)
            if UnknownProductRule.reason(event, catalog: settings.catalog) == nil { state = state.applying(event) }
        }
        return state.isPaid ? nil : settings.subscriptions.timezone.localDate(of: last).yearMonth
    }
}

extension SubscriptionKPIs.State {
    /// The counts of subscribers settled as of this state's period, as
    /// counted under `settings`: the same time zone, windows and sharing
    /// app, a period no earlier and a series starting no earlier. The
    /// period moves, and the months before the new first month are dropped
    /// (``narrowed(to:)``); nil for other settings. Exact only for settled
    /// subscribers' counts, which hold nothing from the period on.
    public func rebased(to settings: SubscriptionKPIs.Settings) -> SubscriptionKPIs.State? {
        guard settings.period >= period, settings.firstMonth >= firstMonth, timezone == settings.timezone.identifier,
              conversionWindowDays == settings.conversionWindowDays, retentionDays == settings.retentionDays,
              sharingApp == settings.sharingApp else { return nil }
        var state = self
        state.period = settings.period
        return state.narrowed(to: settings.firstMonth)
    }
}
