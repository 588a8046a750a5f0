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

    /// The parser before it worked on bytes: splits and trims Unicode scalars.
    /// Kept here as the reference the byte parser must agree with.
    static func scalarReference(type: SplitType, split: String?) -> Result<SplitRule, SplitRuleParser.ParseError> {
        func trim(_ text: String) -> String {
            var s = Substring(text).unicodeScalars
            while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
            while let c = s.last, c == " " || c == "\t" { s.removeLast() }
            return String(s)
        }
        if type == .equal { return .success(.equal) }
        guard let split, !trim(split).isEmpty else { return .failure(.missingSplit(type)) }
        var entries: [SplitEntry] = []
        for rawPair in split.unicodeScalars.split(separator: ";", omittingEmptySubsequences: true) {
            let pair = trim(String(String.UnicodeScalarView(rawPair)))
            if pair.isEmpty { continue }
            let parts = pair.unicodeScalars.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                .map { String(String.UnicodeScalarView($0)) }
            let member = trim(parts[0])
            guard !member.isEmpty else { return .failure(.malformedPair(pair)) }
            if type == .full {
                guard parts.count == 1 else { return .failure(.malformedPair(pair)) }
                entries.append(SplitEntry(memberId: member, value: nil))
                continue
            }
            guard parts.count == 2 else { return .failure(.malformedPair(pair)) }
            let valueText = trim(parts[1])
            guard case .success(let value) = Decimal10.parse(valueText) else {
                return .failure(.invalidValue(member: member, value: valueText))
            }
            entries.append(SplitEntry(memberId: member, value: value))
        }
        guard !entries.isEmpty else { return .failure(.missingSplit(type)) }
        return .success(SplitRule(type: type, entries: entries))
    }

    @Test("the byte parser reads every split as the scalar parser did, malformed ones included")
    func byteParserAgreesWithTheScalarReference() {
        let pieces = [";", ":", " ", "\t", "m1", "m2", "é", "e\u{301}", "\u{301}", "👩‍❤️‍👨", "60", "40.5", "-1", ".", "x", "0"]
        var rng = SplitMix64(seed: 20261121)
        for _ in 0..<20_000 {
            let split = (0..<Int.random(in: 0...9, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            for type in SplitType.allCases {
                #expect(SplitRuleParser.parse(type: type, split: split) == Self.scalarReference(type: type, split: split),
                        "\(type.rawValue) '\(split)'")
            }
        }
        #expect(SplitRuleParser.parse(type: .shares, split: nil) == .failure(.missingSplit(.shares)))
    }

    @Test("both fields parsed from their bytes give what they give as text, for known, odd and missing types")
    func bytesAgreeWithText() {
        let types: [String?] = [nil, "", "equal", "shares", "percentage", "exact", "full", "Percentage", "FULL", "weird", " equal"]
        let splits: [String?] = [nil, "", " ; ", "m1:60;m2:40", "m2", "m2:1", "m1:x", "m1:50; m1:50", ":3"]
        func parsed(_ type: String?, _ split: String?) -> Result<SplitRule, SplitRuleParser.ParseError> {
            func bytes<T>(_ text: String?, _ body: (UnsafeBufferPointer<UInt8>?) -> T) -> T {
                guard let text, !text.isEmpty else { return body(nil) }   // readers hand out nil for an empty field
                return Array(text.utf8).withUnsafeBufferPointer { body($0) }
            }
            return bytes(type) { t in bytes(split) { s in SplitRuleParser.parse(typeUTF8: t, splitUTF8: s) } }
        }
        for type in types {
            for split in splits {
                #expect(parsed(type, split) == SplitRuleParser.parse(type: type, split: split), "\(type ?? "nil") '\(split ?? "nil")'")
            }
        }
    }
}
