/// The kind of a reject, as a stable machine code: the last column of
/// `rejects.csv` (`reason_code`), stored with every reject in the warehouse
/// and carried on the wire. A code names the kind, never the row: the
/// details (which field, which value) are in the English ``RejectReason/text``.
///
/// The codes are part of the contract: a code once written is never renamed
/// or given another meaning (`RejectCodeTests` lists them all). The codes a
/// couple's statement words in its locale are the same codes.
///
/// ```swift
/// RejectReason.dateInvalid(field: "date", value: "2026-09-31").code   // .dateInvalid
/// ```
public enum RejectCode: String, Hashable, Sendable, CaseIterable {
    // A row as read (TallyIngest's readers and decoders).
    /// A row with more or fewer fields than the header.
    case fieldCount = "field_count"
    /// A record that cannot be read as CSV or JSON (an unbalanced quote, a NUL byte, invalid UTF-8, bad JSON).
    case recordMalformed = "record_malformed"
    /// A record longer than tally reads.
    case recordTooLong = "record_too_long"
    /// The row's `id` is empty.
    case idEmpty = "id_empty"
    /// Another required field is empty.
    case fieldEmpty = "field_empty"
    /// An amount that is not a plain decimal (`73,73`, `1.234,56`).
    case amountNotDecimal = "amount_not_decimal"
    /// An amount with more decimals than its currency has.
    case amountTooManyDecimals = "amount_too_many_decimals"
    /// An amount too large to hold, as written or once converted.
    case amountOutOfRange = "amount_out_of_range"
    /// A currency code tally does not know.
    case currencyUnknown = "currency_unknown"
    /// A date that is not `YYYY-MM-DD` or not on the calendar (`2026-09-31`).
    case dateInvalid = "date_invalid"
    /// A timestamp without a time zone offset.
    case timestampNoOffset = "timestamp_no_offset"
    /// A timestamp that is not ISO 8601 or not a real date and time.
    case timestampInvalid = "timestamp_invalid"
    /// A number that is not a decimal number.
    case numberInvalid = "number_invalid"
    /// A number that is not whole, too large to hold, or outside its range.
    case numberOutOfRange = "number_out_of_range"
    /// A value that is not one of the contract's spellings (a role, a swipe action, an event…).
    case valueNotAllowed = "value_not_allowed"
    /// A value that must not be negative (steps, a price).
    case valueNegative = "value_negative"
    /// A value that must be positive (an fx rate, a settlement's amount).
    case valueNotPositive = "value_not_positive"
    /// Two fields that must differ hold the same value (a swipe on oneself, a rate from a currency to itself).
    case fieldsEqual = "fields_equal"
    /// An end (`endDate`, `leftAt`, `disconnectedAt`) before its start.
    case endBeforeStart = "end_before_start"
    /// A paying subscription event without its `productId`.
    case productIdMissing = "product_id_missing"
    /// A `splitType` that is not one of the contract's.
    case splitTypeUnknown = "split_type_unknown"

    // A row against the rows of its key (TallyCore's row rules).
    /// A key seen again in the same file (the first row is kept).
    case idRepeated = "id_repeated"
    /// A couple's row (member, card, agreement, settlement, expense) whose couple no `couples` row has.
    case unknownCouple = "unknown_couple"
    /// A check-in whose challenge no `challenges` row has.
    case unknownChallenge = "unknown_challenge"
    /// A subscription event whose product nobody priced.
    case unknownProduct = "unknown_product"

    // A couple's row against its couple (``LedgerResolver``, ``StatementBuilder``).
    case payerNotMember = "payer_not_member"
    case splitMemberNotMember = "split_member_not_member"
    case splitPercentagesNot100 = "split_percentages_not_100"
    case splitExactNotAmount = "split_exact_not_amount"
    case splitInvalid = "split_invalid"
    case noFxRate = "no_fx_rate"
    case coupleTotalOverLimit = "couple_total_over_limit"
    case settlementPartyNotMember = "settlement_party_not_member"
    case settlementToSelf = "settlement_to_self"
    case agreementTooLong = "agreement_too_long"

    // A check-in against its challenge (``CheckinRule``).
    /// The check-in's group is not its challenge's.
    case checkinWrongGroup = "checkin_wrong_group"
    /// No `checkInPhotoURL`.
    case checkinNoPhoto = "checkin_no_photo"
    /// A workout shorter than `leaderboards.minimumWorkoutMinutes`.
    case workoutTooShort = "workout_too_short"
    /// The user was not a member of the challenge's group when checking in.
    case checkinNotMember = "checkin_not_member"
    /// A check-in on a day outside the challenge's dates.
    case checkinOutsideDates = "checkin_outside_dates"
    /// A workout already checked in by an earlier check-in.
    case checkinDuplicateWorkout = "checkin_duplicate_workout"

    // Whole files.
    /// The file could not be read at all (`run.json` → `refused`).
    case fileRefused = "file_refused"

    /// A reject an earlier tally stored without its code, read from a
    /// warehouse before its file is read again (the next ingest reads it).
    case unclassified = "unclassified"

    /// The code stored as `text`; ``unclassified`` for an empty or unknown one.
    public init(stored text: String) { self = RejectCode(rawValue: text) ?? .unclassified }
}

/// Why a row was rejected: its kind (``code``) and the English sentence of
/// `rejects.csv` (``text``), built from the kind and its details here, one
/// function per kind, so a kind reads the same wherever it is found.
///
/// ```swift
/// let why = RejectReason.dateInvalid(field: "date", value: "2026-09-31")
/// why.code   // .dateInvalid
/// why.text   // "date '2026-09-31' is not a valid date YYYY-MM-DD"
/// ```
public struct RejectReason: Hashable, Sendable, CustomStringConvertible {
    public let code: RejectCode
    /// The sentence of `rejects.csv`, in words a person can act on.
    public let text: String

    /// A reason read back as stored (the warehouse, the wire).
    public init(code: RejectCode, text: String) {
        self.code = code
        self.text = text
    }

    public var description: String { text }

    // MARK: A row as read

    /// `has 17 fields, the header has 15`.
    public static func fieldCount(_ found: Int, header: Int) -> RejectReason {
        RejectReason(code: .fieldCount, text: "has \(found) fields, the header has \(header)")
    }

    /// A record the reader could not split into fields; `text` says where and why
    /// (`unbalanced quote in field 'description'; the line was read alone`).
    public static func malformed(_ text: String) -> RejectReason {
        RejectReason(code: .recordMalformed, text: text)
    }

    /// `record longer than 1048576 bytes` (`; the line was read alone` when only its first line was rejected).
    public static func recordTooLong(_ maxBytes: Int, lineAlone: Bool = false) -> RejectReason {
        RejectReason(code: .recordTooLong, text: "record longer than \(maxBytes) bytes" + (lineAlone ? "; the line was read alone" : ""))
    }

    /// `id is empty` (``RejectCode/idEmpty`` for the field `id`, else ``RejectCode/fieldEmpty``).
    public static func empty(_ field: String) -> RejectReason {
        RejectReason(code: field == "id" ? .idEmpty : .fieldEmpty, text: "\(field) is empty")
    }

    /// An amount field that ``Money`` refused: `amount: amount '73,73' is not a decimal number like 1234.56 (…)`.
    public static func amount(_ field: String, _ error: Money.ParseError) -> RejectReason {
        let code: RejectCode
        switch error {
        case .empty: return empty(field)
        case .invalid: code = .amountNotDecimal
        case .tooManyDecimals: code = .amountTooManyDecimals
        case .outOfRange: code = .amountOutOfRange
        }
        return RejectReason(code: code, text: "\(field): \(error)")
    }

    /// `currency 'XYZ' is not an ISO 4217 currency code tally knows`.
    public static func currencyUnknown(field: String, value: String) -> RejectReason {
        RejectReason(code: .currencyUnknown, text: "\(field) '\(value)' is not an ISO 4217 currency code tally knows")
    }

    /// `date '2026-09-31' is not a valid date YYYY-MM-DD` (`form` names the spellings read).
    public static func dateInvalid(field: String, value: String, form: String = "YYYY-MM-DD") -> RejectReason {
        RejectReason(code: .dateInvalid, text: "\(field) '\(value)' is not a valid date \(form)")
    }

    /// `updatedAt '2026-10-03T21:15:00' has no time zone offset (expected like …)`.
    public static func timestampNoOffset(field: String, value: String) -> RejectReason {
        RejectReason(code: .timestampNoOffset,
                     text: "\(field) '\(value)' has no time zone offset (expected like 2026-10-03T21:15:00-03:00)")
    }

    /// A timestamp written as ISO 8601 that is not a real date and time (`isISO8601`), or not ISO 8601 at all.
    public static func timestampInvalid(field: String, value: String, isISO8601: Bool) -> RejectReason {
        RejectReason(code: .timestampInvalid, text: isISO8601
            ? "\(field) '\(value)' is not a real date and time"
            : "\(field) '\(value)' is not an ISO 8601 timestamp like 2026-10-03T21:15:00-03:00")
    }

    /// `steps 'ten' is not a decimal number`.
    public static func numberInvalid(field: String, value: String) -> RejectReason {
        RejectReason(code: .numberInvalid, text: "\(field) '\(value)' is not a decimal number")
    }

    /// `dayOfMonth '2.5' is not a whole number`.
    public static func numberNotWhole(field: String, value: String) -> RejectReason {
        RejectReason(code: .numberOutOfRange, text: "\(field) '\(value)' is not a whole number")
    }

    /// `dayOfMonth 40 is outside 1...31`, or (no range) `steps '1e99' is out of range`.
    public static func numberOutOfRange(field: String, value: String, range: ClosedRange<Int64>? = nil) -> RejectReason {
        RejectReason(code: .numberOutOfRange, text: range.map { "\(field) \(value) is outside \($0.lowerBound)...\($0.upperBound)" }
            ?? "\(field) '\(value)' is out of range")
    }

    /// `action 'rewind' is not one of like, pass, super_like, report`.
    public static func notOneOf(field: String, value: String, choices: String) -> RejectReason {
        RejectReason(code: .valueNotAllowed, text: "\(field) '\(value)' is not one of \(choices)")
    }

    /// `steps -5 is negative`.
    public static func negative(field: String, value: String) -> RejectReason {
        RejectReason(code: .valueNegative, text: "\(field) \(value) is negative")
    }

    /// `amount 0.00 is not positive`.
    public static func notPositive(field: String, value: String) -> RejectReason {
        RejectReason(code: .valueNotPositive, text: "\(field) \(value) is not positive")
    }

    /// `userId and partnerId are both 'u1'`.
    public static func fieldsEqual(_ a: String, _ b: String, value: String) -> RejectReason {
        RejectReason(code: .fieldsEqual, text: "\(a) and \(b) are both '\(value)'")
    }

    /// `endDate 2026-09-01 is before startDate 2026-10-01`.
    public static func endBeforeStart(end: String, _ endValue: String, start: String, _ startValue: String) -> RejectReason {
        RejectReason(code: .endBeforeStart, text: "\(end) \(endValue) is before \(start) \(startValue)")
    }

    /// `productId is empty; a subscribed event names its product`.
    public static func productIdMissing(event: String) -> RejectReason {
        RejectReason(code: .productIdMissing, text: "productId is empty; a \(event) event names its product")
    }

    /// A `splitType`/`split` pair that cannot be read.
    public static func split(_ error: SplitRuleParser.ParseError) -> RejectReason {
        switch error {
        case .unknownType: RejectReason(code: .splitTypeUnknown, text: error.description)
        case .missingSplit, .malformedPair, .invalidValue: RejectReason(code: .splitInvalid, text: error.description)
        }
    }

    // MARK: A row against the rows of its key

    /// `duplicate id in this file (the first row is kept)`; `key` describes the table's key.
    public static func repeated(key: String) -> RejectReason {
        RejectReason(code: .idRepeated, text: "duplicate \(key) in this file (the first row is kept)")
    }

    /// `card of unknown couple 'c9'`, `check-in for unknown challenge 'ch9'`.
    public static func orphan(_ child: OrphanRule.Child, parentId: String) -> RejectReason {
        switch child {
        case .member, .card, .agreement, .settlement, .expense:
            RejectReason(code: .unknownCouple, text: "\(child.rawValue) of unknown couple '\(parentId)'")
        case .checkin:
            checkin(.unknownChallenge(parentId))
        }
    }

    /// `productId 'pro_weekly' is in neither subscriptions/products nor the products of tally.yml`.
    public static func unknownProduct(_ product: String) -> RejectReason {
        RejectReason(code: .unknownProduct,
                     text: "productId '\(product.prefix(60))' is in neither subscriptions/products nor the products of tally.yml")
    }

    // MARK: A couple's row against its couple

    /// `paidBy 'm9' is not a member of couple c1` (a payer, a settlement's party: `field` says which).
    public static func notMember(_ field: String, _ member: String, couple: String, code: RejectCode) -> RejectReason {
        RejectReason(code: code, text: "\(field) '\(member)' is not a member of couple \(couple)")
    }

    /// A split that cannot be applied to the couple's members.
    public static func split(_ error: SplitError) -> RejectReason {
        RejectReason(code: RejectCode(error), text: error.description)
    }

    /// `fromMember and toMember are both 'm1'`.
    public static func settlementToSelf(_ member: String) -> RejectReason {
        RejectReason(code: .settlementToSelf, text: "fromMember and toMember are both '\(member)'")
    }

    /// An amount `fx` could not convert on `date`: `no fx rate from USD to BRL on or before 2026-10-02`,
    /// or `12.00 USD converted to BRL on 2026-10-02 is out of range`.
    public static func conversion(_ fx: FxTable, _ amount: Int64, from: Currency, to: Currency, on date: LocalDate) -> RejectReason {
        let code = RejectCode.failedConversion(fx, from: from, to: to, on: date)
        return RejectReason(code: code, text: code == .noFxRate
            ? "no fx rate from \(from.code) to \(to.code) on or before \(date)"
            : "\(Money.plain(amount, from)) \(from.code) converted to \(to.code) on \(date) is out of range")
    }

    /// `amount 1000.00 BRL would take the totals of couple c1 past 2·10^18 minor units, …`.
    public static func overTotal(_ what: String, couple: String) -> RejectReason {
        RejectReason(code: .coupleTotalOverLimit, text: "\(what) \(CoupleLimits.overTotal(couple))")
    }

    /// `agreement runs 301 months up to 2026-10, more than the 300 tally follows`.
    public static func agreementTooLong(months: Int, upTo period: YearMonth) -> RejectReason {
        RejectReason(code: .agreementTooLong,
                     text: "agreement runs \(months) months up to \(period), more than the \(CoupleLimits.maxAgreementMonths) tally follows")
    }

    /// `reason` with what happens to the row added: `…; agreement 'a1' is left out of the 2026-10 statement`.
    public func leaving(_ consequence: String) -> RejectReason {
        RejectReason(code: code, text: "\(text); \(consequence)")
    }

    // MARK: A check-in against its challenge

    /// The reason of a check-in that does not count (worded by ``CheckinRule/reason``).
    public static func checkin(_ rule: CheckinRule) -> RejectReason {
        let code: RejectCode
        switch rule {
        case .unknownChallenge: code = .unknownChallenge
        case .wrongGroup: code = .checkinWrongGroup
        case .noPhoto: code = .checkinNoPhoto
        case .tooShort: code = .workoutTooShort
        case .notAMember: code = .checkinNotMember
        case .outsideChallenge: code = .checkinOutsideDates
        case .duplicateWorkout: code = .checkinDuplicateWorkout
        }
        return RejectReason(code: code, text: rule.reason)
    }

    // MARK: Whole files

    /// `file refused: not gzip (…)`.
    public static func fileRefused(_ why: String) -> RejectReason {
        RejectReason(code: .fileRefused, text: "file refused: \(why)")
    }
}
