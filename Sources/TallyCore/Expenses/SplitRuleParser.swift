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
    ///
    /// Works on the UTF-8 bytes: the delimiters (`;`, `:`) and the trimmed
    /// spaces and tabs are ASCII, which never occurs inside a multi-byte
    /// character, so splitting bytes splits exactly where splitting Unicode
    /// scalars does (a combining mark after `;` or `:` never glues itself to
    /// the delimiter). Strings are made only for member ids and messages,
    /// because every expense's split is parsed at the load and again by the
    /// statements.
    public static func parse(type: SplitType, split: String?) -> Result<SplitRule, ParseError> {
        if type == .equal { return .success(.equal) }
        guard var split else { return .failure(.missingSplit(type)) }
        return split.withUTF8 { parse(type: type, utf8: $0) }
    }

    private static func parse(type: SplitType, utf8 bytes: UnsafeBufferPointer<UInt8>) -> Result<SplitRule, ParseError> {
        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        func trimmed(_ range: Range<Int>) -> Range<Int> {
            var lower = range.lowerBound, upper = range.upperBound
            while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
            while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
            return lower..<upper
        }
        guard !trimmed(0..<bytes.count).isEmpty else { return .failure(.missingSplit(type)) }
        var entries: [SplitEntry] = []
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x3B /* ; */ { end += 1 }
            defer { start = end + 1 }
            let pair = trimmed(start..<end)
            if pair.isEmpty { continue }
            var colon = pair.lowerBound
            while colon < pair.upperBound && bytes[colon] != 0x3A /* : */ { colon += 1 }
            let member = trimmed(pair.lowerBound..<colon)
            guard !member.isEmpty else { return .failure(.malformedPair(text(pair))) }
            if type == .full {
                guard colon == pair.upperBound else { return .failure(.malformedPair(text(pair))) }
                entries.append(SplitEntry(memberId: text(member), value: nil))
                continue
            }
            guard colon < pair.upperBound else { return .failure(.malformedPair(text(pair))) }
            let value = trimmed(colon + 1..<pair.upperBound)
            guard case .success(let decimal) = Decimal10.parse(utf8: UnsafeBufferPointer(rebasing: bytes[value])) else {
                return .failure(.invalidValue(member: text(member), value: text(value)))
            }
            entries.append(SplitEntry(memberId: text(member), value: decimal))
        }
        guard !entries.isEmpty else { return .failure(.missingSplit(type)) }
        return .success(SplitRule(type: type, entries: entries))
    }

    /// Both fields at once.
    public static func parse(type typeText: String?, split: String?) -> Result<SplitRule, ParseError> {
        type(typeText).flatMap { parse(type: $0, split: split) }
    }

    /// Both fields at once, from their UTF-8 bytes (nil for an absent
    /// field), as a reader holds them: no String is made for a type written
    /// as its name or for the split, only for the member ids. Gives what
    /// ``parse(type:split:)`` gives for the same text.
    public static func parse(typeUTF8: UnsafeBufferPointer<UInt8>?, splitUTF8: UnsafeBufferPointer<UInt8>?) -> Result<SplitRule, ParseError> {
        let type: SplitType
        if let typeUTF8, !typeUTF8.isEmpty {
            if let named = typeNames.first(where: { $0.utf8.elementsEqual(typeUTF8) }) {
                type = named.type
            } else {
                switch self.type(String(decoding: typeUTF8, as: UTF8.self)) {
                case .success(let other): type = other
                case .failure(let error): return .failure(error)
                }
            }
        } else {
            type = .equal
        }
        if type == .equal { return .success(.equal) }
        guard let splitUTF8 else { return .failure(.missingSplit(type)) }
        return parse(type: type, utf8: splitUTF8)
    }

    /// Each split type's name as bytes.
    private static let typeNames = SplitType.allCases.map { (utf8: Array($0.rawValue.utf8), type: $0) }

    /// The canonical text of a rule's entries (`m1:60;m2:40`, `m2` for full).
    public static func format(_ rule: SplitRule) -> String {
        rule.entries.map { entry in
            entry.value.map { "\(entry.memberId):\($0)" } ?? entry.memberId
        }.joined(separator: ";")
    }
}
