import Testing
@testable import TallyCore

/// ``OrphanRule`` and ``WinningExpenseRejectRule``: the reasons, word for word.
@Suite("Orphan rules")
struct OrphanRuleTests {
    @Test func aRowWithItsParentIsNotRejected() {
        for child in OrphanRule.Child.allCases {
            #expect(OrphanRule.reject(child, parentId: "p1", parentExists: true) == nil)
        }
    }

    let bad = RejectReason.amount("amount", .invalid("12,50"))

    @Test func theReasonsNameTheChildAndItsMissingParent() {
        #expect(OrphanRule.reject(.member, parentId: "c9", parentExists: false)?.code == .unknownCouple)
        #expect(OrphanRule.reject(.checkin, parentId: "nope", parentExists: false)?.code == .unknownChallenge)
        #expect(OrphanRule.reject(.member, parentId: "c9", parentExists: false)?.text == "member of unknown couple 'c9'")
        #expect(OrphanRule.reject(.card, parentId: "c9", parentExists: false)?.text == "card of unknown couple 'c9'")
        #expect(OrphanRule.reject(.agreement, parentId: "c9", parentExists: false)?.text == "agreement of unknown couple 'c9'")
        #expect(OrphanRule.reject(.settlement, parentId: "c9", parentExists: false)?.text == "settlement of unknown couple 'c9'")
        #expect(OrphanRule.reject(.expense, parentId: "c9", parentExists: false)?.text == "expense of unknown couple 'c9'")
        #expect(OrphanRule.reject(.checkin, parentId: "nope", parentExists: false)?.text == "check-in for unknown challenge 'nope'")
    }

    @Test func aDeletedWinnerIsNeverRejected() {
        #expect(WinningExpenseRejectRule.reject(error: bad, deleted: true, coupleId: "c9", coupleExists: false) == nil)
        #expect(WinningExpenseRejectRule.reject(error: nil, deleted: true, coupleId: "c9", coupleExists: false) == nil)
    }

    @Test func aFailedWinnerKeepsItsValidationReasonEvenWithoutItsCouple() {
        #expect(WinningExpenseRejectRule.reject(error: bad, deleted: false, coupleId: "c9", coupleExists: false) == bad)
        #expect(WinningExpenseRejectRule.reject(error: bad, deleted: false, coupleId: "c1", coupleExists: true) == bad)
    }

    @Test func aValidWinnerIsRejectedOnlyWithoutItsCouple() {
        #expect(WinningExpenseRejectRule.reject(error: nil, deleted: false, coupleId: "c9", coupleExists: false)?.code == .unknownCouple)
        #expect(WinningExpenseRejectRule.reject(error: nil, deleted: false, coupleId: "c9", coupleExists: false)?.text
                == "expense of unknown couple 'c9'")
        #expect(WinningExpenseRejectRule.reject(error: nil, deleted: false, coupleId: "c1", coupleExists: true) == nil)
    }
}
