import Testing
@testable import TallyCore
@testable import TallyWire

/// Malformed lines are refused with the line, the kind and the field named.
@Suite("Wire: errors name the line, kind and field")
struct WireErrorTests {
    let good = "member.v1\tc1\tm1\tAna"

    @Test func aGoodLineReads() throws {
        #expect(try WireLineReader.records(Member.self, in: Array((good + "\n").utf8)) == [Member(id: "m1", coupleId: "c1", displayName: "Ana")])
    }

    @Test func tooFewFields() {
        #expect(wireError("member.v1\tc1\tm1", as: Member.self)?.description
            == "line 1: member.v1, field 3 (displayName): is missing: the line has 2 fields after its tag")
    }

    @Test func tooManyFields() {
        #expect(wireError(good + "\textra", as: Member.self)?.description
            == "line 1: member.v1 has 4 fields after its tag, 3 expected (the last is displayName)")
    }

    @Test func aBadIntegerNamesTheField() {
        let line = "settlement.v1\tc1\ts1\tm1\tm2\t12x\tBRL\t2026-10-03\tf.csv\t2"
        let error = wireError(good + "\n" + line, as: SettlementFact.self)
        #expect(error?.description == "line 1: member.v1 is not a record kind read here (expected settlement)")
        let second = wireError("\n" + line, as: SettlementFact.self)
        #expect(second == WireError(line: 2, kind: "settlement.v1", field: 5, fieldName: "amount", reason: "'12x' is not an integer"))
        #expect(second?.description == "line 2: settlement.v1, field 5 (amount): '12x' is not an integer")
        #expect(wireError("settlement.v1\tc1\ts1\tm1\tm2\t99999999999999999999\tBRL\t2026-10-03\tf.csv\t2", as: SettlementFact.self)?.reason
            == "'99999999999999999999' is not an integer")
    }

    @Test func otherBadFields() {
        #expect(wireError("couple.v1\tc1\tHome\tbrl", as: Couple.self)?.description
            == "line 1: couple.v1, field 3 (currency): 'brl' is not a currency code")
        #expect(wireError("couple.v1\tc1\tHome\tQQQ", as: Couple.self)?.reason
            == "'QQQ' is not an ISO 4217 code (others are written CODE:minorUnits)")
        #expect(wireError("couple.v1\t\\N\tHome\tBRL", as: Couple.self)?.description
            == "line 1: couple.v1, field 1 (id): is nil (\\N) but the field is required")
        #expect(wireError("couple.v1\tc\\x1\tHome\tBRL", as: Couple.self)?.reason
            == "unknown escape '\\x' (escapes are \\\\, \\t, \\n, \\r; \\N alone is nil)")
        #expect(wireError("couple.v1\tc1\\\tHome\tBRL", as: Couple.self)?.reason == "ends with a lone '\\'")
        #expect(wireError("couple.v1\tc1\t\u{FF}\tBRL", as: Couple.self) == nil)   // ÿ, valid UTF-8
        // A stray byte, and a cut 4-byte sequence (its replacement character would be as long as it).
        for bad: [UInt8] in [[0xFF], [0xF0, 0x9F, 0x98], [0x61, 0xC3]] {
            let invalid = Array("couple.v1\tc1\t".utf8) + bad + [0x09] + Array("BRL".utf8)
            do {
                _ = try WireLineReader.records(Couple.self, in: invalid)
                Issue.record("invalid UTF-8 \(bad) read as a string")
            } catch {
                #expect(error.description == "line 1: couple.v1, field 2 (name): is not valid UTF-8")
            }
        }
        #expect(wireError("challenge.v1\tch\tg\tRun\t2026-02-30\t2026-03-01", as: Challenge.self)?.description
            == "line 1: challenge.v1, field 4 (startDate): '2026-02-30' is not a date (YYYY-MM-DD)")
        #expect(wireError("swipe.v1\ta\tb\ts1\tsuperlike\t0", as: Swipe.self)?.reason
            == "'superlike' is not one of like, pass, super_like, report")
        #expect(wireError("product.v1\tp\tA\tmonthly\tyes\t100\tBRL", as: ProductCatalog.Entry.self)?.reason == "'yes' is not 0 or 1")
        #expect(wireError("expense.v1\tc1\te1\tm1\t1\tBRL\t2026-10-03\td\tt\t\\N\tf\t1\tshares\t2\tm1\t1", as: ExpenseFact.self)?.description
            == "line 1: expense.v1, field 16 (split.memberId): is missing: the line has 15 fields after its tag")
    }

    @Test func unknownKindsAndTags() {
        #expect(wireError("membr.v1\tc1\tm1\tAna", as: Member.self)?.description
            == "line 1: membr.v1 is not a record kind read here (expected member)")
        #expect(wireError("member\tc1\tm1\tAna", as: Member.self)?.description
            == "line 1: 'member' is not a record tag: a tag is kind.vN (expense.v1)")
        #expect(wireError("Member.v1\tc1\tm1\tAna", as: Member.self)?.description
            == "line 1: 'Member.v1' is not a record tag: a kind is lower case letters, digits and '-'")
    }

    @Test func versions() {
        #expect(wireError("member.v2\tc1\tm1\tAna", as: Member.self)?.description == "line 1: member.v2 is newer than this tally reads (v1)")
        #expect(wireError("expense.v2\tc1", as: ExpenseFact.self)?.description == "line 1: expense.v2 is newer than this tally reads (v1)")
        #expect(wireError("member.v0\tc1\tm1\tAna", as: Member.self)?.description
            == "line 1: member.v0 is older than this tally reads (v1 to v1)")
    }

    @Test func emptyLinesAreSkippedAndLinesAreNumbered() {
        let text = "\n" + good + "\n\n" + "member.v1\tc1\tm2\n"
        #expect(wireError(text, as: Member.self)?.line == 4)
        #expect(wireError(text, as: Member.self)?.field == 3)
    }

    @Test func aCountLargerThanTheLineIsRefused() {
        #expect(wireError("statement-totals.v1\t1\t2\t0\t0\t0\t0\t1000000", as: StatementTotals.self)?.description
            == "line 1: statement-totals.v1, field 7 (spendingCount): 1000000 is not a possible count")
    }
}
