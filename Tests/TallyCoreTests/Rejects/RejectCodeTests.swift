import Testing
@testable import TallyCore

/// ``RejectCode``: the codes are part of the contract (`rejects.csv`'s
/// `reason_code`), so they are listed here word for word; each has a
/// ``RejectReason`` that produces it.
@Suite("Reject codes")
struct RejectCodeTests {
    /// Every code, as `rejects.csv` spells it. A change here is a change of the contract.
    static let spelled = [
        "field_count", "record_malformed", "record_too_long", "id_empty", "field_empty", "amount_not_decimal",
        "amount_too_many_decimals", "amount_out_of_range", "currency_unknown", "date_invalid", "timestamp_no_offset",
        "timestamp_invalid", "number_invalid", "number_out_of_range", "value_not_allowed", "value_negative",
        "value_not_positive", "fields_equal", "end_before_start", "product_id_missing", "split_type_unknown",
        "id_repeated", "unknown_couple", "unknown_challenge", "unknown_product",
        "payer_not_member", "split_member_not_member", "split_percentages_not_100", "split_exact_not_amount",
        "split_invalid", "no_fx_rate", "couple_total_over_limit", "settlement_party_not_member", "settlement_to_self",
        "agreement_too_long",
        "checkin_wrong_group", "checkin_no_photo", "workout_too_short", "checkin_not_member", "checkin_outside_dates",
        "checkin_duplicate_workout",
        "file_refused", "unclassified",
    ]

    @Test func theCodesAreStableUniqueAndSnakeCase() {
        let codes = RejectCode.allCases.map(\.rawValue)
        #expect(codes == Self.spelled)
        #expect(Set(codes).count == codes.count)
        for code in codes {
            #expect(code.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }, "\(code)")
            #expect(RejectCode(stored: code).rawValue == code)
        }
        #expect(RejectCode(stored: "") == .unclassified && RejectCode(stored: "renamed_code") == .unclassified)
    }

    /// One reason per code (but ``RejectCode/unclassified``, which only a
    /// warehouse of an earlier tally holds): every kind has its one sentence.
    static let examples: [(RejectReason, String)] = {
        let usd = Currency(code: "USD")!, brl = Currency(code: "BRL")!
        let day = LocalDate(year: 2026, month: 10, day: 2)!
        let fx = FxTable()
        let at = Timestamp(seconds: 1_790_000_000)
        return [
            (.fieldCount(16, header: 15), "has 16 fields, the header has 15"),
            (.malformed("NUL byte in field 'id'"), "NUL byte in field 'id'"),
            (.recordTooLong(1024), "record longer than 1024 bytes"),
            (.empty("id"), "id is empty"),
            (.empty("paidBy"), "paidBy is empty"),
            (.amount("amount", .invalid("73,73")),
             "amount: amount '73,73' is not a decimal number like 1234.56 (no comma decimal, no thousands separator)"),
            (.amount("amount", .tooManyDecimals("1.005", currency: "BRL", allowed: 2)),
             "amount: amount '1.005' has more than 2 decimals, the most BRL allows"),
            (.amount("amount", .outOfRange("1e30")), "amount: amount '1e30' is out of range"),
            (.currencyUnknown(field: "currency", value: "XYZ"), "currency 'XYZ' is not an ISO 4217 currency code tally knows"),
            (.dateInvalid(field: "date", value: "2026-09-31"), "date '2026-09-31' is not a valid date YYYY-MM-DD"),
            (.timestampNoOffset(field: "updatedAt", value: "2026-04-06T10:27:00"),
             "updatedAt '2026-04-06T10:27:00' has no time zone offset (expected like 2026-10-03T21:15:00-03:00)"),
            (.timestampInvalid(field: "createdAt", value: "2026-02-30T10:00:00Z", isISO8601: true),
             "createdAt '2026-02-30T10:00:00Z' is not a real date and time"),
            (.numberInvalid(field: "steps", value: "ten"), "steps 'ten' is not a decimal number"),
            (.numberOutOfRange(field: "dayOfMonth", value: "32", range: 1...31), "dayOfMonth 32 is outside 1...31"),
            (.notOneOf(field: "action", value: "rewind", choices: "like, pass"), "action 'rewind' is not one of like, pass"),
            (.negative(field: "steps", value: "-5"), "steps -5 is negative"),
            (.notPositive(field: "rate", value: "0"), "rate 0 is not positive"),
            (.fieldsEqual("fromUserId", "toUserId", value: "u1"), "fromUserId and toUserId are both 'u1'"),
            (.endBeforeStart(end: "endDate", "2026-02-01", start: "startDate", "2026-03-01"),
             "endDate 2026-02-01 is before startDate 2026-03-01"),
            (.productIdMissing(event: "subscribed"), "productId is empty; a subscribed event names its product"),
            (.split(SplitRuleParser.ParseError.unknownType("metade")),
             "splitType 'metade' is not one of equal, shares, percentage, exact, full"),
            (.repeated(key: "id"), "duplicate id in this file (the first row is kept)"),
            (.orphan(.card, parentId: "c9"), "card of unknown couple 'c9'"),
            (.orphan(.checkin, parentId: "ch9"), "check-in for unknown challenge 'ch9'"),
            (.unknownProduct("pro_weekly"), "productId 'pro_weekly' is in neither subscriptions/products nor the products of tally.yml"),
            (.notMember("paidBy", "m9", couple: "c1", code: .payerNotMember), "paidBy 'm9' is not a member of couple c1"),
            (.split(SplitError.unknownMember("m9")), "split names 'm9', who is not a member of the couple"),
            (.split(SplitError.percentagesDoNotSumTo100(sum: "110")), "split percentages sum to 110, not 100"),
            (.split(SplitError.exactDoesNotSumToAmount(sum: "1.00", amount: "2.00", currency: "BRL")),
             "exact split amounts sum to 1.00 BRL, not the expense amount 2.00 BRL"),
            (.split(SplitError.sharesSumToZero), "split shares sum to 0; at least one member needs a positive weight"),
            (.conversion(fx, 1200, from: usd, to: brl, on: day), "no fx rate from USD to BRL on or before 2026-10-02"),
            (.overTotal("amount 1.00 BRL", couple: "c1"),
             "amount 1.00 BRL would take the totals of couple c1 past 2·10^18 minor units, more than tally adds up exactly"),
            (.notMember("toMember", "m9", couple: "c1", code: .settlementPartyNotMember), "toMember 'm9' is not a member of couple c1"),
            (.settlementToSelf("m1"), "fromMember and toMember are both 'm1'"),
            (.agreementTooLong(months: 301, upTo: YearMonth(year: 2026, month: 10)!),
             "agreement runs 301 months up to 2026-10, more than the \(CoupleLimits.maxAgreementMonths) tally follows"),
            (.checkin(.wrongGroup(checkin: "g2", challenge: "g1")), "check-in group 'g2' is not the challenge's group 'g1'"),
            (.checkin(.noPhoto), "check-in without a photo (checkInPhotoURL is empty)"),
            (.checkin(.tooShort(minutes: 11, minimum: 30)), "workout of 11 minutes is under the minimum of 30"),
            (.checkin(.notAMember(userId: "u1", groupId: "g1", at: at)), "user 'u1' was not a member of group 'g1' at \(at)"),
            (.checkin(.outsideChallenge(day: day, start: day, end: day)),
             "check-in on 2026-10-02 is outside the challenge's dates 2026-10-02…2026-10-02"),
            (.checkin(.duplicateWorkout(workoutEntryId: "w1", firstCheckin: "k1")),
             "duplicate check-in of workout 'w1' (first checked in by 'k1')"),
            (.fileRefused("not gzip"), "file refused: not gzip"),
        ]
    }()

    @Test func everyCodeHasAReasonThatProducesIt() {
        let produced = Set(Self.examples.map(\.0.code))
        #expect(produced == Set(RejectCode.allCases).subtracting([.unclassified]))
        for (reason, text) in Self.examples { #expect(reason.text == text) }
    }

    @Test func aReasonAddsWhatHappensToTheRowKeepingItsCode() {
        let reason = RejectReason.agreementTooLong(months: 301, upTo: YearMonth(year: 2026, month: 10)!)
            .leaving("it is left out of the statement")
        #expect(reason.code == .agreementTooLong && reason.text.hasSuffix("; it is left out of the statement"))
    }
}
