/// Why a split cannot be applied to an expense, in words a person can act on.
public enum SplitError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The couple has no members, so nobody can owe a share.
    case coupleHasNoMembers
    /// The split names someone who is not a member of the couple.
    case unknownMember(String)
    /// The split names the same member twice.
    case duplicateMember(String)
    /// A non-`equal` split that names nobody.
    case noEntries(SplitType)
    /// A `full` split must name exactly one member; it named this many.
    case fullNeedsOneMember(count: Int)
    /// A `full` split gives a value to its member (it takes none).
    case fullTakesNoValue(member: String)
    /// A `shares`, `percentage` or `exact` entry without a value.
    case missingValue(member: String, type: SplitType)
    /// A negative weight, percent or amount (written as given).
    case negativeValue(member: String, value: String, type: SplitType)
    /// Percentages that do not add up to exactly 100 (the sum as a decimal).
    case percentagesDoNotSumTo100(sum: String)
    /// Share weights that add up to zero.
    case sharesSumToZero
    /// An `exact` amount with more decimals than the currency has.
    case exactTooManyDecimals(member: String, value: String, currency: String, allowed: Int)
    /// An `exact` amount too large to hold.
    case exactOutOfRange(member: String, value: String)
    /// A refund's `exact` amounts mixing positive and negative values.
    case exactMixedSigns
    /// `exact` amounts whose total is not the expense amount (both as plain decimals).
    case exactDoesNotSumToAmount(sum: String, amount: String, currency: String)

    public var description: String {
        switch self {
        case .coupleHasNoMembers:
            return "the couple has no members, so the expense cannot be split"
        case .unknownMember(let id):
            return "split names '\(id)', who is not a member of the couple"
        case .duplicateMember(let id):
            return "split names member '\(id)' more than once"
        case .noEntries(let type):
            return "\(type.rawValue) split names no members (write memberId:value pairs joined by ';')"
        case .fullNeedsOneMember(let count):
            return "full split must name exactly one member, not \(count)"
        case .fullTakesNoValue(let member):
            return "full split takes only a member id, but '\(member)' has a value"
        case .missingValue(let member, let type):
            return "\(type.rawValue) split gives member '\(member)' no value (write \(member):value)"
        case .negativeValue(let member, let value, let type):
            return "\(type.rawValue) split gives member '\(member)' a negative value \(value)"
        case .percentagesDoNotSumTo100(let sum):
            return "split percentages sum to \(sum), not 100"
        case .sharesSumToZero:
            return "split shares sum to 0; at least one member needs a positive weight"
        case .exactTooManyDecimals(let member, let value, let currency, let allowed):
            return "exact split amount \(value) for member '\(member)' has more than \(allowed) decimal\(allowed == 1 ? "" : "s"), the most \(currency) allows"
        case .exactOutOfRange(let member, let value):
            return "exact split amount \(value) for member '\(member)' is out of range"
        case .exactMixedSigns:
            return "exact split of a refund mixes positive and negative amounts"
        case .exactDoesNotSumToAmount(let sum, let amount, let currency):
            return "exact split amounts sum to \(sum) \(currency), not the expense amount \(amount) \(currency)"
        }
    }
}
