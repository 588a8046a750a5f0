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
    /// The activity rows and export days that lose to another of their user
    /// and day (`activity_superseded`; `activity_day` is a view of the others).
    case activityRepeats = "activity repeats"
}
