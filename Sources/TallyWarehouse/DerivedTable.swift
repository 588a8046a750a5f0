/// A table (or set of tables) derived from the loaded rows after an ingest:
/// what a report stage waits for before it reads (see
/// ``Warehouse/derivePending(ready:)``). The raw value is the name run.json's
/// "derive …" stages give it.
public enum DerivedTable: String, Sendable, CaseIterable {
    /// The winning version of each expense (`expense_winner`; `expense` is a view of them).
    case expenseWinners = "expense winners"
    /// Repeated swipe ids (`swipe_superseded`) and the matches (`swipe_match`).
    case swipeMatches = "swipe repeats and matches"
    /// Repeated subscription events (`subscription_event_superseded`).
    case subscriptionEvents = "subscription event winners"
    /// The check-ins that count (`checkin_winner`).
    case checkinWinners = "check-in winners"
    /// The superseded activity rows' counts (the days themselves are a view).
    case activityRepeats = "activity repeats"
}
