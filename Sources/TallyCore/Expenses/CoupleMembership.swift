/// The one rule of who may pay in a couple's rows: an expense's or an
/// agreement's payer (`paidBy`) and both parties of a settlement
/// (`fromMember`, then `toMember`) must be members of the couple.
///
/// A row that breaks it is left out of the couple's balances (so the nets
/// still sum to zero) with one ``RejectCode`` (`payer_not_member`,
/// `settlement_party_not_member`) and one wording,
/// ``RejectReason/notMember(_:_:couple:code:)``: `paidBy 'm9' is not a member
/// of couple c1`. ``LedgerResolver`` applies it to the rows as read;
/// ``StatementBuilder`` asks it again of a ledger it is handed, so a ledger
/// built elsewhere is held to the same rule with the same words.
///
/// ```swift
/// let members = CoupleMembership(couple: "c1", memberIds: ["m1", "m2"])
/// members.payer("m9")?.text                          // "paidBy 'm9' is not a member of couple c1"
/// members.settlementParties(from: "m1", to: "m2")    // nil
/// ```
public struct CoupleMembership: Sendable {
    public let coupleId: String
    private let ids: MemberPositions

    public init(couple coupleId: String, memberIds: some Sequence<String>) {
        self.coupleId = coupleId
        self.ids = MemberPositions(Array(memberIds))
    }

    /// Whether `id` is a member of the couple.
    public func contains(_ id: String) -> Bool { ids.contains(id) }

    /// Why `paidBy` cannot pay an expense or agreement of the couple; nil when it is a member.
    public func payer(_ paidBy: String) -> RejectReason? {
        ids.contains(paidBy) ? nil : .notMember("paidBy", paidBy, couple: coupleId, code: .payerNotMember)
    }

    /// Why a settlement from `from` to `to` cannot count: the first party (from, then to) who is not a
    /// member; nil when both are.
    public func settlementParties(from: String, to: String) -> RejectReason? {
        if !ids.contains(from) { return .notMember("fromMember", from, couple: coupleId, code: .settlementPartyNotMember) }
        if !ids.contains(to) { return .notMember("toMember", to, couple: coupleId, code: .settlementPartyNotMember) }
        return nil
    }
}
