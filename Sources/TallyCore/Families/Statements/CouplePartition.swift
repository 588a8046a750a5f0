/// One couple and everything loaded for it: the partition of the statements
/// family (key: the couple id).
public struct CouplePartition: Sendable {
    public var couple: Couple
    public var members: [Member]
    public var expenses: [ExpenseFact]
    public var settlements: [SettlementFact]
    public var agreements: [Agreement]
    /// The couple's rows refused before its statement (they could not be read), as written, by id
    /// (``RefusedRow/precedes(_:_:)``).
    public var refused: [RefusedRow]

    public init(couple: Couple, members: [Member], expenses: [ExpenseFact], settlements: [SettlementFact],
                agreements: [Agreement], refused: [RefusedRow] = []) {
        self.refused = refused
        self.couple = couple
        self.members = members
        self.expenses = expenses
        self.settlements = settlements
        self.agreements = agreements
    }
}
