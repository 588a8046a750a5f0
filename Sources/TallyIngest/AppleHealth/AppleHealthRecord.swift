import TallyCore

/// One step-count, active-energy or walking-running-distance `<Record>` of
/// an Apple Health export, its value converted to tally's unit (count, kcal, km).
public struct AppleHealthRecord: Sendable, Equatable {
    public var quantity: HealthQuantity
    public var sourceName: String
    /// In tally's unit for `quantity`.
    public var value: Double
    /// The record's `startDate`: it counts on this instant's local day.
    public var startDate: Timestamp
    /// The line where the `<Record` starts.
    public var line: Int
}

/// What an ``AppleHealthExportReader`` hands out.
public enum AppleHealthEvent: Sendable {
    /// A record of a quantity tally reads.
    case record(AppleHealthRecord)
    /// A record of such a quantity that cannot be used (unknown unit, bad value or date), with why.
    case invalid(line: Int, reason: RejectReason)
}
