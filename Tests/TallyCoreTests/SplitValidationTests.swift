import Testing
@testable import TallyCore

@Suite struct SplitValidationTests {
    let members = ["m1", "m2", "m3"]

    func check(_ rule: SplitRule, amount: Int64 = 10_000, currency: Currency = brl) -> SplitError? {
        SplitCalculator.validate(rule, memberIds: members, amount: amount, currency: currency)
    }

    @Test func aCoupleWithoutMembersCannotSplit() {
        #expect(SplitCalculator.validate(.equal, memberIds: [], amount: 100, currency: brl) == .coupleHasNoMembers)
        #expect(SplitCalculator.validate(rule(.full, "m1"), memberIds: [], amount: 100, currency: brl) == .coupleHasNoMembers)
    }

    @Test("an unknown or repeated member is found in entry order, for a couple and for a group of any size")
    func membersCheckedInEntryOrderAtAnySize() {
        var generator = SystemRandomNumberGenerator()
        for size in [1, 2, 3, 16, 17, 40] {
            let ids = (0..<size).map { "m\($0)" }
            for _ in 0..<100 {
                // Entries drawn from the members, a few strangers, repeats allowed.
                let named = (0..<Int.random(in: 1...(size + 3), using: &generator)).map { _ in
                    Bool.random(using: &generator) && Int.random(in: 0..<10, using: &generator) == 0
                        ? "x\(Int.random(in: 0..<3, using: &generator))" : ids.randomElement(using: &generator)!
                }
                var expected: SplitError?
                for (k, id) in named.enumerated() {
                    if !ids.contains(id) { expected = .unknownMember(id); break }
                    if named[..<k].contains(id) { expected = .duplicateMember(id); break }
                }
                let shares = SplitRule(type: .shares, entries: named.map { SplitEntry(memberId: $0, value: Decimal10(mantissa: 1, scale: 0)) })
                #expect(SplitCalculator.validate(shares, memberIds: ids, amount: 100, currency: brl) == expected, "\(named)")
            }
        }
    }

    @Test func equalIgnoresEntries() {
        #expect(check(.equal) == nil)
        #expect(check(rule(.equal, "zz:5;m1:1")) == nil)
    }

    @Test func membersMustBeKnownAndNamedOnce() {
        #expect(check(rule(.shares, "m1:1;zz:1")) == .unknownMember("zz"))
        #expect(check(rule(.shares, "m1:1;m1:2")) == .duplicateMember("m1"))
        #expect(check(rule(.percentage, "m2:50;m2:50")) == .duplicateMember("m2"))
        #expect(check(rule(.exact, "m9:100.00")) == .unknownMember("m9"))
        #expect(check(rule(.shares)) == .noEntries(.shares))
        #expect(check(rule(.exact)) == .noEntries(.exact))
    }

    @Test func fullNamesExactlyOneMemberWithoutValue() {
        #expect(check(rule(.full, "m2")) == nil)
        #expect(check(rule(.full)) == .fullNeedsOneMember(count: 0))
        #expect(check(rule(.full, "m1;m2")) == .fullNeedsOneMember(count: 2))
        #expect(check(rule(.full, "m2:1")) == .fullTakesNoValue(member: "m2"))
        #expect(check(rule(.full, "zz")) == .unknownMember("zz"))
    }

    @Test func percentagesMustSumToExactly100() {
        #expect(check(rule(.percentage, "m1:60;m2:40")) == nil)
        #expect(check(rule(.percentage, "m1:60.5;m2:39.50")) == nil)
        #expect(check(rule(.percentage, "m1:33.34;m2:33.33;m3:33.33")) == nil)
        #expect(check(rule(.percentage, "m1:100;m2:0")) == nil)
        #expect(check(rule(.percentage, "m1:60;m2:30")) == .percentagesDoNotSumTo100(sum: "90"))
        #expect(check(rule(.percentage, "m1:60;m2:30"))?.description == "split percentages sum to 90, not 100")
        #expect(check(rule(.percentage, "m1:33.33;m2:33.33;m3:33.33")) == .percentagesDoNotSumTo100(sum: "99.99"))
        #expect(check(rule(.percentage, "m1:110;m2:-10")) == .negativeValue(member: "m2", value: "-10", type: .percentage))
        #expect(check(rule(.percentage, "m1;m2:100")) == .missingValue(member: "m1", type: .percentage))
    }

    @Test func sharesNeedAPositiveTotal() {
        #expect(check(rule(.shares, "m1:2;m2:1")) == nil)
        #expect(check(rule(.shares, "m1:0;m2:1.5")) == nil)
        #expect(check(rule(.shares, "m1:0;m2:0")) == .sharesSumToZero)
        #expect(check(rule(.shares, "m1:-1;m2:2")) == .negativeValue(member: "m1", value: "-1", type: .shares))
        #expect(check(rule(.shares, "m1:2;m2")) == .missingValue(member: "m2", type: .shares))
    }

    @Test func exactAmountsAreMoneySummingToTheAmount() {
        #expect(check(rule(.exact, "m1:30.00;m2:70.00"), amount: 10_000) == nil)
        #expect(check(rule(.exact, "m1:30;m2:70"), amount: 10_000) == nil)
        #expect(check(rule(.exact, "m1:0;m2:100.00;m3:0.0"), amount: 10_000) == nil)
        #expect(check(rule(.exact, "m1:30.00;m2:60.00"), amount: 10_000)
            == .exactDoesNotSumToAmount(sum: "90.00", amount: "100.00", currency: "BRL"))
        #expect(check(rule(.exact, "m1:30.00;m2:60.00"), amount: 10_000)?.description
            == "exact split amounts sum to 90.00 BRL, not the expense amount 100.00 BRL")
        #expect(check(rule(.exact, "m1:30.005;m2:69.995"), amount: 10_000)
            == .exactTooManyDecimals(member: "m1", value: "30.005", currency: "BRL", allowed: 2))
        #expect(check(rule(.exact, "m1:3500.0"), amount: 3500, currency: jpy)
            == .exactTooManyDecimals(member: "m1", value: "3500.0", currency: "JPY", allowed: 0))
        #expect(check(rule(.exact, "m1:3000;m2:500"), amount: 3500, currency: jpy) == nil)
        #expect(check(rule(.exact, "m1:-30.00;m2:130.00"), amount: 10_000)
            == .negativeValue(member: "m1", value: "-30.00", type: .exact))
        #expect(check(rule(.exact, "m1:99999999999999999"), amount: 10_000)
            == .exactOutOfRange(member: "m1", value: "99999999999999999"))
        #expect(check(rule(.exact, "m1:100.00;m2"), amount: 10_000) == .missingValue(member: "m2", type: .exact))
    }

    @Test func refundExactAmountsSumToTheMagnitude() {
        #expect(check(rule(.exact, "m1:30.00;m2:70.00"), amount: -10_000) == nil)
        #expect(check(rule(.exact, "m1:-30.00;m2:-70.00"), amount: -10_000) == nil)
        #expect(check(rule(.exact, "m1:-30.00;m2:70.00"), amount: -10_000) == .exactMixedSigns)
        #expect(check(rule(.exact, "m1:30.00;m2:60.00"), amount: -10_000)
            == .exactDoesNotSumToAmount(sum: "90.00", amount: "100.00", currency: "BRL"))
        #expect(check(rule(.exact, "m1:-30.00;m2:-60.00"), amount: -10_000)
            == .exactDoesNotSumToAmount(sum: "-90.00", amount: "-100.00", currency: "BRL"))
    }

    @Test func everyErrorReadsAsASentence() {
        let errors: [SplitError] = [
            .coupleHasNoMembers, .unknownMember("x"), .duplicateMember("x"), .noEntries(.shares),
            .fullNeedsOneMember(count: 2), .fullTakesNoValue(member: "x"), .missingValue(member: "x", type: .shares),
            .negativeValue(member: "x", value: "-1", type: .shares), .percentagesDoNotSumTo100(sum: "90"),
            .sharesSumToZero, .exactTooManyDecimals(member: "x", value: "1.234", currency: "BRL", allowed: 2),
            .exactOutOfRange(member: "x", value: "1"), .exactMixedSigns,
            .exactDoesNotSumToAmount(sum: "1.00", amount: "2.00", currency: "BRL"),
        ]
        for error in errors {
            #expect(error.description.count > 20)
            #expect(!error.description.contains("SplitError"))
        }
        #expect(Set(errors.map(\.description)).count == errors.count)
    }
}
