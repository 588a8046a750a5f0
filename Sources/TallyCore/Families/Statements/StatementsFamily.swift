/// Monthly couple statements as a report family.
///
/// - Partition: a couple and everything loaded for it (``CouplePartition``),
///   keyed by the couple id.
/// - Per partition: the ledger resolved (``LedgerResolver``), the month's
///   statement built (``StatementBuilder``) with the month's rows that do not
///   count (``CoupleStatement/leftOut``), its reconciliation checked.
/// - Summary: ``StatementTotals`` (counts and spending by tag per currency),
///   the rejects, and the couples whose statement does not reconcile; all
///   merge associatively and commutatively.
/// - Report: the totals, the rejects in rejects.csv order, and the
///   reconciliation problems in couple order.
///
/// ```swift
/// let family = StatementsFamily(settings: .init(period: period, fx: fx))
/// let result = family.compute(partition)       // result.rows: the couple's statement
/// ```
public struct StatementsFamily: ReportFamily {
    public struct Settings: Sendable {
        public var period: YearMonth
        /// The loaded fx rates (every partition reads all of them).
        public var fx: FxTable
        public var trendMonths: Int
        public var exactTransferLimit: Int
        /// Whether statements keep the month line by line (for the couple's text and workbook).
        public var itemised: Bool

        public init(period: YearMonth, fx: FxTable, trendMonths: Int = TallyConfig.Statements().trendMonths,
                    exactTransferLimit: Int = TallyConfig.Statements().exactTransferLimit, itemised: Bool = false) {
            self.period = period
            self.fx = fx
            self.trendMonths = trendMonths
            self.exactTransferLimit = exactTransferLimit
            self.itemised = itemised
        }
    }

    /// One couple's rows: its statement and the rows its ledger rejected.
    public struct Rows: Sendable {
        public var statement: CoupleStatement
        public var rejects: [Reject]

        package init(statement: CoupleStatement, rejects: [Reject]) {
            self.statement = statement
            self.rejects = rejects
        }
    }

    public struct Summary: Mergeable {
        public var totals = StatementTotals()
        public var rejects = RejectList()
        /// Statements that do not reconcile: (couple key, what is wrong).
        public var problems: [Problem] = []

        public init() {}

        public mutating func merge(_ other: Summary) {
            totals.merge(other.totals)
            rejects.merge(other.rejects)
            problems += other.problems
        }
    }

    /// A statement that does not reconcile.
    public struct Problem: Sendable, Hashable {
        public var key: PartitionKey
        public var detail: String

        package init(key: PartitionKey, detail: String) {
            self.key = key
            self.detail = detail
        }
    }

    public struct Report: Sendable, Equatable {
        public var totals: StatementTotals
        /// Every reject of the family, in rejects.csv order.
        public var rejects: [Reject]
        /// What does not reconcile, in couple (byte) order.
        public var problems: [String]
    }

    public let settings: Settings
    public var name: String { "statements" }

    public init(settings: Settings) { self.settings = settings }

    public func key(of partition: CouplePartition) -> PartitionKey { PartitionKey(partition.couple.id) }

    public func compute(_ partition: CouplePartition) -> PartitionResult<Rows, Summary> {
        compute(partition, from: nil).result
    }

    /// ``compute(_:)`` of a partition whose expenses are every one of the
    /// couple's, or with `opening` those dated from its month on; with the
    /// ledger's resolution and what the statement carries to the month after.
    func compute(_ partition: CouplePartition, from opening: LedgerOpening?)
        -> (result: PartitionResult<Rows, Summary>, resolution: LedgerResolver.Resolution, carried: StatementBuilder.Carried)
    {
        let resolution = LedgerResolver.resolve(
            couple: partition.couple, members: partition.members, expenses: partition.expenses,
            settlements: partition.settlements, agreements: partition.agreements, fx: settings.fx,
            openingTotal: opening?.expenseTotal ?? 0)
        var (statement, carried) = StatementBuilder.build(
            resolution.ledger, period: settings.period, fx: settings.fx, trendMonths: settings.trendMonths,
            exactTransferLimit: settings.exactTransferLimit, itemised: settings.itemised, from: opening)
        statement.leftOut = Self.leftOut(resolution.leftOut + statement.leftOut, of: partition, in: settings.period)
        statement.refused = RefusedRow.listed(partition.refused, in: settings.period)
        let rejects = resolution.rejects + statement.rejects
        var summary = Summary()
        summary.totals.add(statement)
        summary.rejects = RejectList(rejects)
        let key = key(of: partition)
        if let problem = StatementReconciliation.problem(statement) { summary.problems = [Problem(key: key, detail: problem)] }
        return (PartitionResult(key: key, rows: Rows(statement: statement, rejects: rejects), summary: summary), resolution, carried)
    }

    public func emptySummary() -> Summary { Summary() }

    /// The rows of `rows` dated in `period`, by date then id. An agreement the resolver left out stands
    /// for its month in `period` (`agreement:<id>:<YYYY-MM>`, on its day) when it runs through it.
    static func leftOut(_ rows: [LeftOutRow], of partition: CouplePartition, in period: YearMonth) -> [LeftOutRow] {
        var agreements: [String: Agreement] = [:]
        for agreement in partition.agreements where agreements[agreement.id] == nil { agreements[agreement.id] = agreement }
        return rows.compactMap { row -> LeftOutRow? in
            guard row.kind == .agreementMonth, let agreement = agreements[row.id] else {
                return row.date.yearMonth == period ? row : nil
            }
            guard agreement.startDate.yearMonth <= period, (agreement.endDate?.yearMonth ?? period) >= period else { return nil }
            var month = row
            month.id = "agreement:\(agreement.id):\(period)"
            month.date = period.clampedDay(agreement.dayOfMonth)
            return month
        }.sorted(by: LeftOutRow.precedes)
    }

    public func finalise(_ summary: Summary) -> Report {
        Report(totals: summary.totals, rejects: summary.rejects.sorted,
               problems: summary.problems.sorted { $0.key < $1.key }.map(\.detail))
    }
}

extension StatementTotals: Mergeable {}
