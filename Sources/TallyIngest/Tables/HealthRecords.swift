import TallyCore

/// A row of `health/activity`: one user's day.
public struct ActivityRecord: Sendable, Equatable {
    public var day: DailyActivity
}
