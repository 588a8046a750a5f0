/// Parses the contract's `splitType` and `split` fields into a ``SplitRule``.
///
/// `split` is `memberId:value` pairs joined by `;` (`m1:60;m2:40`); for `full`
/// it names one member (`m2`, a trailing `:value` is refused). Values are
/// plain decimals. Whitespace around ids and values is trimmed.
public enum SplitRuleParser {
    /// Why a split could not be read.
    public enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        case unknownType(String)
        case missingSplit(SplitType)
        case malformedPair(String)
        case invalidValue(member: String, value: String)

        public var description: String {
            switch self {
            case .unknownType(let t):
                return "splitType '\(t)' is not one of equal, shares, percentage, exact, full"
            case .missingSplit(let t): return "splitType \(t.rawValue) needs a split like m1:60;m2:40"
            case .malformedPair(let p): return "split entry '\(p)' is not memberId:value"
            case .invalidValue(let m, let v): return "split value '\(v)' for member \(m) is not a decimal number"
            }
        }
    }

    /// Parses a split type name; empty or nil means `equal`.
    public static func type(_ text: String?) -> Result<SplitType, ParseError> {
        guard let text, !text.isEmpty else { return .success(.equal) }
        if let type = SplitType(rawValue: text) ?? SplitType(rawValue: text.lowercased()) { return .success(type) }
        return .failure(.unknownType(text))
    }

    /// Parses `split` for `type`. `equal` ignores the field.
    public static func parse(type: SplitType, split: String?) -> Result<SplitRule, ParseError> {
        if type == .equal { return .success(.equal) }
        guard let split, !split.trimmingSpaces.isEmpty else { return .failure(.missingSplit(type)) }
        var entries: [SplitEntry] = []
        // Delimiters are split on as Unicode scalars, not Characters: a
        // combining mark after `;` or `:` must not glue itself to the delimiter.
        for rawPair in split.unicodeScalars.split(separator: ";", omittingEmptySubsequences: true) {
            let pair = String(String.UnicodeScalarView(rawPair)).trimmingSpaces
            if pair.isEmpty { continue }
            let parts = pair.unicodeScalars.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                .map { String(String.UnicodeScalarView($0)) }
            let member = parts[0].trimmingSpaces
            guard !member.isEmpty else { return .failure(.malformedPair(pair)) }
            if type == .full {
                guard parts.count == 1 else { return .failure(.malformedPair(pair)) }
                entries.append(SplitEntry(memberId: member, value: nil))
                continue
            }
            guard parts.count == 2 else { return .failure(.malformedPair(pair)) }
            let valueText = parts[1].trimmingSpaces
            guard case .success(let value) = Decimal10.parse(valueText) else {
                return .failure(.invalidValue(member: member, value: valueText))
            }
            entries.append(SplitEntry(memberId: member, value: value))
        }
        guard !entries.isEmpty else { return .failure(.missingSplit(type)) }
        return .success(SplitRule(type: type, entries: entries))
    }

    /// Both fields at once.
    public static func parse(type typeText: String?, split: String?) -> Result<SplitRule, ParseError> {
        type(typeText).flatMap { parse(type: $0, split: split) }
    }

    /// The canonical text of a rule's entries (`m1:60;m2:40`, `m2` for full).
    public static func format(_ rule: SplitRule) -> String {
        rule.entries.map { entry in
            entry.value.map { "\(entry.memberId):\($0)" } ?? entry.memberId
        }.joined(separator: ";")
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs (compared
    /// as Unicode scalars, so a tab followed by a combining mark is kept whole).
    var trimmingSpaces: String {
        var s = Substring(self).unicodeScalars
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}
