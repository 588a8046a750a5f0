/// A deliberately awkward row the generator plants so that tally's readers and
/// reject rules are exercised. Each kind lives in one file; its ``outcome`` says
/// what a correct reader does with it. ``GenerationSummary/badRows`` counts them.
public enum BadRowKind: String, CaseIterable, Sendable, Comparable {
    // expenses/expenses.csv
    /// An amount with a comma decimal (`"12,50"`, quoted so the row keeps its fields).
    case expenseCommaDecimal
    /// An amount with more decimals than the currency has (`10.005` BRL).
    case expenseTooManyDecimals
    /// A JPY amount written with a decimal point (`3500.0`).
    case expenseJPYWithDecimals
    /// An impossible date (`2026-02-30`, `2026-09-31`).
    case expenseInvalidDate
    /// An `updated_at` with no offset (`2026-05-04T10:00:00`).
    case expenseTimestampWithoutOffset
    /// A split naming a member who is not in the couple.
    case expenseUnknownSplitMember
    /// A `percentage` split whose percents do not sum to 100.
    case expensePercentagesNot100
    /// An `exact` split whose amounts do not sum to the expense amount.
    case expenseExactNotAmount
    /// A `couple_id` no couple has.
    case expenseUnknownCouple
    /// A `split_type` that is not one of the five (`half`, `ratio`).
    case expenseUnknownSplitType
    /// An empty `id`.
    case expenseEmptyId
    /// A CSV row with too many fields (an unquoted comma) or too few (a cut-off line).
    case expenseWrongFieldCount
    /// A foreign-currency expense dated before the first fx rate for its currency.
    case expenseForeignBeforeFx
    /// An older version of an expense id (a later `updated_at` wins): superseded, not rejected.
    case expenseSuperseded
    /// An expense whose winning version has `deleted_at` set: the expense is removed.
    case expenseDeleted

    // swipes/swipes.ndjson.gz
    /// A swipe whose `fromUserId` equals its `toUserId`.
    case swipeOnSelf
    /// A swipe with an action outside like/pass/super_like/report (`rewind`, `block`).
    case swipeUnknownAction
    /// A swipe timestamp with no offset.
    case swipeTimestampWithoutOffset
    /// A swipe line repeated with the same id (identical content): counted once.
    case swipeRepeatedId

    // checkins/checkins.ndjson
    /// A check-in without `checkInPhotoURL` (null or empty).
    case checkinWithoutPhoto
    /// A check-in whose workout lasted under 30 minutes.
    case checkinTooShort
    /// A check-in by a user who was not a member of the group at `createdAt`
    /// (never joined, not yet joined, or already left).
    case checkinNonMember
    /// A check-in whose local day (America/Sao_Paulo) is outside the challenge's dates.
    case checkinOutsideChallenge
    /// A second, later check-in for a `workoutEntryId` already checked in.
    case checkinDuplicateWorkout

    // health/activity.csv
    /// An activity row with negative steps (written after a valid row of the same day, which it must not override).
    case healthNegativeSteps
    /// An earlier row of a user and day that repeats later in the file: superseded.
    case healthRepeatedDay

    // subscriptions/events.csv.gz
    /// An event whose name is not in the contract (`billing_issue`, `grace_period_started`).
    case subscriptionUnknownEvent

    /// What a correct reader does with such a row.
    public enum Outcome: String, Sendable {
        /// The row goes to rejects.csv.
        case rejected
        /// The row is counted as superseded (another row of the same id/key wins).
        case superseded
        /// The row is used, and removes its record (a deleted expense).
        case deletes
    }

    public var outcome: Outcome {
        switch self {
        case .expenseSuperseded, .swipeRepeatedId, .healthRepeatedDay: return .superseded
        case .expenseDeleted: return .deletes
        default: return .rejected
        }
    }

    /// The file the rows are in, relative to the data folder.
    public var file: String {
        switch self {
        case .expenseCommaDecimal, .expenseTooManyDecimals, .expenseJPYWithDecimals, .expenseInvalidDate,
             .expenseTimestampWithoutOffset, .expenseUnknownSplitMember, .expensePercentagesNot100,
             .expenseExactNotAmount, .expenseUnknownCouple, .expenseUnknownSplitType, .expenseEmptyId,
             .expenseWrongFieldCount, .expenseForeignBeforeFx, .expenseSuperseded, .expenseDeleted:
            return "expenses/expenses.csv"
        case .swipeOnSelf, .swipeUnknownAction, .swipeTimestampWithoutOffset, .swipeRepeatedId:
            return "swipes/swipes.ndjson.gz"
        case .checkinWithoutPhoto, .checkinTooShort, .checkinNonMember, .checkinOutsideChallenge,
             .checkinDuplicateWorkout:
            return "checkins/checkins.ndjson"
        case .healthNegativeSteps, .healthRepeatedDay:
            return "health/activity.csv"
        case .subscriptionUnknownEvent:
            return "subscriptions/events.csv.gz"
        }
    }

    /// The dataset folder (`expenses`, `swipes`, …).
    public var dataset: String { String(file.prefix { $0 != "/" }) }

    public static func < (a: BadRowKind, b: BadRowKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
