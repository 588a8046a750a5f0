import TallyCore

/// A type with a line encoding on the wire, defined once: a tag naming its
/// kind and version, its routing key field(s), then its payload fields,
/// tab-separated (see docs/wire-format.md).
///
/// ```swift
/// var writer = WireWriter()
/// writer.append(member)                    // member.v1\tc1\tm1\tAna\n
/// let back = try WireLineReader.records(Member.self, in: writer.bytes)
/// ```
///
/// `encode(into:)` writes the fields after the tag, key fields first, with
/// the writer's field methods; `init(fields:)` reads them back in the same
/// order with the matching ``WireFields`` methods. The decoding checks that
/// every field was read, so a line with extra fields is refused.
public protocol WireRecord {
    /// The record kind: lower case letters, digits and `-` (`expense`).
    static var wireKind: String { get }
    /// The version this tally writes. Raise it when the fields change.
    static var wireVersion: Int { get }
    /// The oldest version `init(fields:)` still reads (``WireFields/version`` tells which one a line has).
    static var wireOldestVersion: Int { get }
    /// How many leading fields form the routing key (0: the record is not routed, as a total of all partitions).
    static var wireKeyFieldCount: Int { get }

    /// Writes the fields after the tag, key fields first.
    func encode(into writer: inout WireWriter)
    /// Reads the fields after the tag, in the order `encode(into:)` writes them.
    init(fields: inout WireFields) throws(WireError)
}

extension WireRecord {
    public static var wireOldestVersion: Int { wireVersion }

    /// The tag this tally writes: `expense.v1`.
    public static var wireTag: String { "\(wireKind).v\(wireVersion)" }

    /// The line of this record, newline included.
    public var wireLine: [UInt8] {
        var writer = WireWriter()
        writer.append(self)
        return writer.bytes
    }
}

/// Every record kind of the domain (TallyCore's types), for dispatch and for the format's documentation.
public enum WireKinds {
    /// The keyed input records, the partial results, then the results a run keeps for the next.
    public static var all: [any WireRecord.Type] {
        [
            Couple.self, Member.self, ExpenseFact.self, SettlementFact.self, Agreement.self, FxRate.self,
            Challenge.self, GroupMembership.self, CheckinFact.self, DailyActivity.self,
            UserSubscriptionEvent.self, ProductCatalog.Entry.self, PartnerConnection.self, Swipe.self, SwipeMatch.self,
            StatementTotals.self, SubscriptionKPIs.State.self,
            SwipesDailyAccumulator<NumberedSwiperSet>.self, SwipesDailyAccumulator<HashedSwiperSet<String>>.self,
            MatchRule.PairPartial.self,
            Reject.self, StatementsFamily.Summary.self, LeaderboardsFamily.Summary.self, ActivityFamily.Summary.self,
            KPIsFamily.SummaryState.self,
            LedgerOpening.self,
        ]
    }
}
