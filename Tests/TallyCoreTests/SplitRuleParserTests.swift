import Testing
@testable import TallyCore

@Suite("splitType and split fields")
struct SplitRuleParserTests {
    @Test func typesAndDefaults() {
        #expect(SplitRuleParser.type(nil) == .success(.equal))
        #expect(SplitRuleParser.type("") == .success(.equal))
        #expect(SplitRuleParser.type("Percentage") == .success(.percentage))
        #expect(SplitRuleParser.type("thirds") == .failure(.unknownType("thirds")))
    }

    @Test func pairs() throws {
        let rule = try SplitRuleParser.parse(type: "percentage", split: "m1:60; m2:40").get()
        #expect(rule.entries == [SplitEntry(memberId: "m1", value: Decimal10(mantissa: 60, scale: 0)),
                                 SplitEntry(memberId: "m2", value: Decimal10(mantissa: 40, scale: 0))])
        #expect(SplitRuleParser.format(rule) == "m1:60;m2:40")
        let exact = try SplitRuleParser.parse(type: "exact", split: "m1:30.00;m2:70.00").get()
        #expect(exact.entries[1].value == Decimal10(mantissa: 7000, scale: 2))
    }

    @Test func fullNamesOneMember() throws {
        let rule = try SplitRuleParser.parse(type: "full", split: "m2").get()
        #expect(rule.entries == [SplitEntry(memberId: "m2", value: nil)])
        #expect(SplitRuleParser.parse(type: "full", split: "m2:1") == .failure(.malformedPair("m2:1")))
    }

    @Test func equalIgnoresSplit() {
        #expect(SplitRuleParser.parse(type: "equal", split: "whatever") == .success(.equal))
    }

    @Test func refusals() {
        #expect(SplitRuleParser.parse(type: "shares", split: nil) == .failure(.missingSplit(.shares)))
        #expect(SplitRuleParser.parse(type: "shares", split: "m1") == .failure(.malformedPair("m1")))
        #expect(SplitRuleParser.parse(type: "shares", split: ":2") == .failure(.malformedPair(":2")))
        #expect(SplitRuleParser.parse(type: "percentage", split: "m1:6O") == .failure(.invalidValue(member: "m1", value: "6O")))
    }
}

/// Found by fuzzing (FuzzValues, crash-80f50119: `2;\t \t\u{747}`): the parser
/// split and trimmed Characters, so a combining mark after `;` glued itself
/// to the delimiter and a printed rule read back as another rule.
@Suite("Split rules with combining marks")
struct SplitRuleCombiningMarkTests {
    @Test func aCombiningMarkAfterADelimiterDoesNotHideIt() {
        let parsed = SplitRuleParser.parse(type: "full", split: "2;\t \t\u{747}")
        #expect(parsed == .success(SplitRule(type: .full, entries: [SplitEntry(memberId: "2", value: nil),
                                                                   SplitEntry(memberId: "\u{747}", value: nil)])))
        let shares = SplitRuleParser.parse(type: "shares", split: "m1:\u{301}1;\u{301}m2:1")
        #expect(shares == .failure(.invalidValue(member: "m1", value: "\u{301}1")))
    }

    @Test func whatIsPrintedReadsBack() throws {
        for text in ["2;\t \t\u{747}", "a\u{301};b", "m1:2;\u{301}m2:1", "x:1;y:2"] {
            for type in ["full", "shares"] {
                guard case .success(let rule) = SplitRuleParser.parse(type: type, split: text) else { continue }
                #expect(SplitRuleParser.parse(type: rule.type, split: SplitRuleParser.format(rule)) == .success(rule), "\(type) \(text)")
            }
        }
    }
}
