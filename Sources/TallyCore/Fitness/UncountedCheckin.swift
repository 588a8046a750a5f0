/// A check-in that does not count on its challenge's board, with why (its
/// ``RejectCode``): what a participant reads to learn why a check-in they
/// made is not among their points.
///
/// ```swift
/// UncountedCheckin(checkinId: "k7", userId: "u1", displayName: "Ana", day: day, workoutEntryId: "w1",
///                  minutes: 12, reason: .workoutTooShort)
/// ```
public struct UncountedCheckin: Hashable, Sendable {
    public var checkinId: String
    public var userId: String
    public var displayName: String
    /// The local day of its `createdAt` (the report time zone).
    public var day: LocalDate
    public var workoutEntryId: String?
    public var minutes: Int
    public var reason: RejectCode

    public init(checkinId: String, userId: String, displayName: String, day: LocalDate, workoutEntryId: String?,
                minutes: Int, reason: RejectCode) {
        self.checkinId = checkinId
        self.userId = userId
        self.displayName = displayName
        self.day = day
        self.workoutEntryId = workoutEntryId
        self.minutes = minutes
        self.reason = reason
    }

    /// A board's order: participant (user id, bytes), then a participant's
    /// check-ins in ``DateThenId`` order (day, then check-in id).
    public static func precedes(_ a: UncountedCheckin, _ b: UncountedCheckin) -> Bool {
        if case let c = ByteOrder.compare(a.userId, b.userId), c != 0 { return c < 0 }
        return DateThenId.precedes(DateThenId(a.day, id: a.checkinId), DateThenId(b.day, id: b.checkinId))
    }
}
