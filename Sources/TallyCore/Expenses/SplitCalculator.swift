/// The split rules of the contract: which splits are valid, and how an amount
/// is divided into whole minor units among a couple's members.
///
/// Every split type reduces to weights: `equal` gives 1 to every member of the
/// couple, `full` gives 1 to the named member, `shares`, `percentage` and
/// `exact` use their values. |amount| is divided in proportion to the
/// weights: each member gets the floor of their exact share, then the units
/// left over go one each to the members with the largest fractional
/// remainders. Among equal remainders the order rotates from expense to
/// expense: the tied members are listed by id (UTF-8 byte order) and the
/// first unit goes to position (sum of the expense id's UTF-8 bytes) modulo
/// (number of tied members), wrapping around. A refund (negative amount)
/// splits |amount| and negates every share.
public enum SplitCalculator {
    /// Checks `rule` against the couple's `memberIds` and the expense's
    /// original `amount` and `currency` (before any fx conversion).
    ///
    /// - `equal` ignores its entries (it means every member of the couple);
    /// - other types must name only members, each once;
    /// - `full` names exactly one member, without a value;
    /// - `percentage` values are ≥ 0 and sum to exactly 100;
    /// - `shares` weights are ≥ 0 with a positive total;
    /// - `exact` values are money in `currency` (no more decimals than its
    ///   minor units), ≥ 0, and sum to |amount|. A refund's values may also
    ///   be written negative (all ≤ 0, summing to `amount`).
    ///
    /// A couple with no members cannot split anything.
    /// - Returns: nil when the split is valid, else the first problem found.
    public static func validate(_ rule: SplitRule, memberIds: [String], amount: Int64, currency: Currency) -> SplitError? {
        if memberIds.isEmpty { return .coupleHasNoMembers }
        if rule.type == .equal { return nil }
        if rule.type == .full, rule.entries.count != 1 { return .fullNeedsOneMember(count: rule.entries.count) }
        if rule.entries.isEmpty { return .noEntries(rule.type) }

        if let problem = memberProblem(rule.entries, memberIds: memberIds) { return problem }

        switch rule.type {
        case .equal:
            return nil
        case .full:
            let entry = rule.entries[0]
            return entry.value == nil ? nil : .fullTakesNoValue(member: entry.memberId)
        case .percentage, .shares:
            for entry in rule.entries {
                guard let value = entry.value else { return .missingValue(member: entry.memberId, type: rule.type) }
                if value.isNegative { return .negativeValue(member: entry.memberId, value: value.description, type: rule.type) }
            }
            let (sum, scale) = exactSum(of: rule.entries)
            if rule.type == .shares {
                return sum == 0 ? .sharesSumToZero : nil
            }
            guard let hundred = Rounding.pow10(scale + 2), sum == hundred else {
                return .percentagesDoNotSumTo100(sum: format(sum, scale: scale))
            }
            return nil
        case .exact:
            return validateExact(rule.entries, amount: amount, currency: currency)
        }
    }

    /// The first entry that names no member of `memberIds` or a member named
    /// before, in entry order; nil when there is none. Both are looked up by
    /// ``MemberPositions``: directly for a couple's few, by dictionary past 16.
    private static func memberProblem(_ entries: [SplitEntry], memberIds: [String]) -> SplitError? {
        let members = MemberPositions(memberIds)
        // An entry repeats a member when the member's first entry comes before it.
        let named = MemberPositions(entries.map(\.memberId))
        for (k, entry) in entries.enumerated() {
            guard members.contains(entry.memberId) else { return .unknownMember(entry.memberId) }
            if named[entry.memberId] != k { return .duplicateMember(entry.memberId) }
        }
        return nil
    }

    private static func validateExact(_ entries: [SplitEntry], amount: Int64, currency: Currency) -> SplitError? {
        var minors: [Int64] = []
        for entry in entries {
            guard let value = entry.value else { return .missingValue(member: entry.memberId, type: .exact) }
            if value.scale > currency.minorUnits {
                return .exactTooManyDecimals(member: entry.memberId, value: value.description,
                                             currency: currency.code, allowed: currency.minorUnits)
            }
            guard let minor = value.rescaled(to: currency.minorUnits) else {
                return .exactOutOfRange(member: entry.memberId, value: value.description)
            }
            if amount >= 0, minor < 0 {
                return .negativeValue(member: entry.memberId, value: value.description, type: .exact)
            }
            minors.append(minor)
        }
        let hasPositive = minors.contains { $0 > 0 }
        let hasNegative = minors.contains { $0 < 0 }
        if hasPositive && hasNegative { return .exactMixedSigns }
        let sum = minors.reduce(Int128(0)) { $0 + Int128($1) }
        // Values written as magnitudes sum to |amount|; a refund's negative values sum to amount.
        let target = hasNegative ? Int128(amount) : Int128(amount.magnitude)
        guard sum == target else {
            return .exactDoesNotSumToAmount(sum: format(sum, scale: currency.minorUnits),
                                            amount: format(target, scale: currency.minorUnits),
                                            currency: currency.code)
        }
        return nil
    }

    /// Divides `amount` among `memberIds` by `rule`; the result is aligned
    /// with `memberIds` (members the split does not name get 0) and always
    /// sums to `amount` exactly. `expenseId` sets the rotation among tied
    /// remainders (see ``SplitCalculator``).
    ///
    /// For `exact`, the values are weights: when `amount` is the amount they
    /// were written for, the shares are exactly those values; a converted
    /// foreign amount is divided in their proportions.
    ///
    /// `rule` is expected to pass ``validate(_:memberIds:amount:currency:)``.
    /// The function is total anyway: entries naming non-members are ignored,
    /// repeated members add up, negative or missing values weigh 0 (an
    /// `exact` value weighs its magnitude), and a rule whose weights total 0
    /// divides equally among every member. With no members it returns `[]`.
    public static func allocate(_ amount: Int64, rule: SplitRule, memberIds: [String], expenseId: String) -> [Int64] {
        var shares: [Int64] = []
        allocate(amount, rule: rule, memberIds: memberIds, expenseId: expenseId, into: &shares)
        return shares
    }

    /// ``allocate(_:rule:memberIds:expenseId:)`` written into `shares`
    /// (replacing what it held), so a caller dividing expense after expense
    /// reuses one array: most expenses split equally or go in full to one
    /// member, and those are divided in place, without the weights' arrays.
    public static func allocate(_ amount: Int64, rule: SplitRule, memberIds: [String], expenseId: String,
                                into shares: inout [Int64]) {
        shares.removeAll(keepingCapacity: true)
        if memberIds.isEmpty { return }
        switch rule.type {
        case .equal:
            if divideEqually(amount, memberIds: memberIds, expenseId: expenseId, into: &shares) { return }
        case .full:
            if let i = firstNamed(rule.entries, in: MemberPositions(memberIds)) {
                shares.append(contentsOf: repeatElement(0, count: memberIds.count))
                shares[i] = amount
                return
            }
        default:
            break
        }
        shares.append(contentsOf: allocateByWeights(amount, rule: rule, memberIds: memberIds, expenseId: expenseId))
    }

    /// The position in `memberIds` of the first entry that names a member.
    private static func firstNamed(_ entries: [SplitEntry], in positions: MemberPositions) -> Int? {
        for entry in entries {
            if let i = positions[entry.memberId] { return i }
        }
        return nil
    }

    /// ``allocate(_:rule:memberIds:expenseId:)`` through the weights, for every split type.
    static func allocateByWeights(_ amount: Int64, rule: SplitRule, memberIds: [String], expenseId: String) -> [Int64] {
        if memberIds.isEmpty { return [] }
        var weights = self.weights(of: rule, memberIds: memberIds)
        if !weights.contains(where: { $0 > 0 }) { weights = Array(repeating: 1, count: memberIds.count) }
        let magnitudes = divide(amount.magnitude, weights: weights, memberIds: memberIds, expenseId: expenseId)
        return magnitudes.map { share in
            amount < 0 ? Int64(bitPattern: 0 &- share) : Int64(bitPattern: share)
        }
    }

    /// Writes `amount` divided equally among `memberIds` into the empty
    /// `shares` when the members are in byte order (a statement's are), else
    /// returns false and writes nothing. Every remainder is equal, so the
    /// units left over go to the members in id order from the rotation's
    /// position, as ``divide(_:weights:memberIds:expenseId:)`` gives them.
    private static func divideEqually(_ amount: Int64, memberIds: [String], expenseId: String, into shares: inout [Int64]) -> Bool {
        let count = memberIds.count
        for i in 1..<count where ByteOrder.precedes(memberIds[i], memberIds[i - 1]) { return false }
        let (quotient, leftover) = amount.magnitude.quotientAndRemainder(dividingBy: UInt64(count))
        func signed(_ share: UInt64) -> Int64 { amount < 0 ? Int64(bitPattern: 0 &- share) : Int64(bitPattern: share) }
        shares.append(contentsOf: repeatElement(signed(quotient), count: count))
        if leftover > 0 {
            // count ≥ 2 here, so quotient + 1 cannot overflow.
            let first = ByteOrder.byteSum(expenseId) % count
            for k in 0..<Int(leftover) { shares[(first + k) % count] = signed(quotient + 1) }
        }
        return true
    }

    /// Non-negative weights aligned with `memberIds`, at one common scale.
    static func weights(of rule: SplitRule, memberIds: [String]) -> [UInt128] {
        if rule.type == .equal { return [UInt128](repeating: 1, count: memberIds.count) }
        let positions = MemberPositions(memberIds)
        var weights = [UInt128](repeating: 0, count: memberIds.count)
        if rule.type == .full {
            if let i = firstNamed(rule.entries, in: positions) { weights[i] = 1 }
            return weights
        }
        // Shares, percentages and exact amounts: each named member's value, at one scale.
        let used: [(Int, Decimal10)] = rule.entries.compactMap { entry in
            guard let i = positions[entry.memberId], let value = entry.value else { return nil }
            if rule.type != .exact, value.isNegative { return nil }
            return (i, normalized(value))
        }
        let scale = used.map(\.1.scale).max() ?? 0
        for (i, value) in used {
            guard let factor = Rounding.pow10(scale - value.scale) else {
                preconditionFailure("split weights span more than 38 decimal digits")
            }
            weights[i] += UInt128(value.mantissa.magnitude) * UInt128(factor)
        }
        return weights
    }

    /// Divides `magnitude` in proportion to `weights` (some positive) by the largest-remainder rule.
    static func divide(_ magnitude: UInt64, weights: [UInt128], memberIds: [String], expenseId: String) -> [UInt64] {
        let total = weights.reduce(UInt128(0), +)
        let amount = UInt128(magnitude)
        var shares = [UInt64](repeating: 0, count: weights.count)
        var remainders = [UInt128](repeating: 0, count: weights.count)
        var given: UInt128 = 0
        for (i, weight) in weights.enumerated() where weight > 0 {
            let quotient: UInt128
            let remainder: UInt128
            let (product, overflow) = amount.multipliedReportingOverflow(by: weight)
            if !overflow {
                (quotient, remainder) = product.quotientAndRemainder(dividingBy: total)
            } else {
                (quotient, remainder) = total.dividingFullWidth(amount.multipliedFullWidth(by: weight))
            }
            shares[i] = UInt64(quotient) // ≤ magnitude, since weight ≤ total
            remainders[i] = remainder
            given += quotient
        }
        var leftover = Int(amount - given) // < number of positive weights
        guard leftover > 0 else { return shares }

        // Largest remainders first; equal remainders in id byte order, then rotated.
        let candidates = weights.indices.filter { weights[$0] > 0 }.sorted { a, b in
            if remainders[a] != remainders[b] { return remainders[a] > remainders[b] }
            if memberIds[a] != memberIds[b] { return ByteOrder.precedes(memberIds[a], memberIds[b]) }
            return a < b
        }
        let rotation = ByteOrder.byteSum(expenseId)
        var start = 0
        while leftover > 0, start < candidates.count {
            var end = start + 1
            while end < candidates.count, remainders[candidates[end]] == remainders[candidates[start]] { end += 1 }
            let tied = Array(candidates[start..<end])
            let first = rotation % tied.count
            for k in 0..<min(leftover, tied.count) {
                shares[tied[(first + k) % tied.count]] += 1
            }
            leftover -= min(leftover, tied.count)
            start = end
        }
        return shares
    }

    /// The value with trailing zero decimals removed (`2.50` → `2.5`).
    private static func normalized(_ value: Decimal10) -> Decimal10 {
        var mantissa = value.mantissa
        var scale = value.scale
        while scale > 0, mantissa % 10 == 0 {
            mantissa /= 10
            scale -= 1
        }
        return Decimal10(mantissa: mantissa, scale: scale)
    }

    /// The exact sum of the values of `entries` (those without one count 0)
    /// and the scale it is written at: two passes, no array.
    private static func exactSum(of entries: [SplitEntry]) -> (sum: Int128, scale: Int) {
        var scale = 0
        for entry in entries {
            if let value = entry.value { scale = max(scale, normalized(value).scale) }
        }
        var sum: Int128 = 0
        for entry in entries {
            guard let value = entry.value.map(normalized) else { continue }
            guard let factor = Rounding.pow10(scale - value.scale) else {
                preconditionFailure("split values span more than 38 decimal digits")
            }
            sum += Int128(value.mantissa) * factor
        }
        return (sum, scale)
    }

    /// `value × 10^-scale` as a plain decimal (`90`, `99.5`, `-12.34`).
    static func format(_ value: Int128, scale: Int) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        guard scale > 0 else { return sign + digits }
        let padded = String(repeating: "0", count: max(0, scale + 1 - digits.count)) + digits
        let whole = padded.dropLast(scale)
        let fraction = padded.suffix(scale)
        return sign + whole + "." + fraction
    }
}
