import Testing
@testable import TallyCore
@testable import TallyWire

/// Random wire values from one seed, leaning on the bytes the format must
/// escape (tab, line feed, carriage return, backslash, `\N` look-alikes)
/// and on the ends of every range.
enum WireRandom {
    /// Pieces strings are made of: escapes, nil look-alikes, composed and decomposed accents, emoji, NUL.
    static let pieces = ["", "a", "c1", "m1", "\t", "\n", "\r", "\r\n", "\\", "\\N", "N", "\\t", "\u{E4}", "a\u{308}", "é",
                         "😀", "x\ty\\z", " ", "\u{0}", "\u{1F}", "~", "\u{7F}"]

    static func string(_ rng: inout SplitMix64) -> String {
        (0..<Int.random(in: 0...4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    static func optionalString(_ rng: inout SplitMix64) -> String? { Bool.random(using: &rng) ? nil : string(&rng) }

    static func int64(_ rng: inout SplitMix64) -> Int64 {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return [Int64.min, Int64.max, 0, -1, 1, 9, 10].randomElement(using: &rng)!
        case 1: return Int64.random(in: .min ... .max, using: &rng)
        default: return Int64.random(in: -1_000_000...1_000_000, using: &rng)
        }
    }

    static func int(_ rng: inout SplitMix64) -> Int { Int(int64(&rng)) }

    static func count(_ rng: inout SplitMix64) -> Int { Int.random(in: 0...1_000_000, using: &rng) }

    static func timestamp(_ rng: inout SplitMix64) -> Timestamp { Timestamp(microseconds: int64(&rng)) }

    static func date(_ rng: inout SplitMix64) -> LocalDate {
        // 0001-01-01 … 9999-12-31.
        LocalDate(daysSinceEpoch: Int64.random(in: -719_162...2_932_896, using: &rng))
    }

    static func month(_ rng: inout SplitMix64) -> YearMonth { date(&rng).yearMonth }

    static let currencies = [brl, usd, jpy, Currency(code: "BHD")!, Currency(code: "XTS", minorUnits: 4), Currency(code: "BRL", minorUnits: 3)]

    static func currency(_ rng: inout SplitMix64) -> Currency { currencies.randomElement(using: &rng)! }

    static func decimal(_ rng: inout SplitMix64) -> Decimal10 {
        Decimal10(mantissa: int64(&rng), scale: Int.random(in: 0...18, using: &rng))
    }

    /// Any double but NaN (which equals nothing): every bit pattern, and the special values.
    static func double(_ rng: inout SplitMix64) -> Double {
        if Bool.random(using: &rng) {
            return [0.0, -0.0, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1, 12_345, 1e-5, 72.45]
                .randomElement(using: &rng)!
        }
        while true {
            let value = Double(bitPattern: rng.next())
            if !value.isNaN { return value }
        }
    }

    static func source(_ rng: inout SplitMix64) -> SourceRef { SourceRef(file: string(&rng), line: int(&rng)) }

    static func split(_ rng: inout SplitMix64) -> SplitRule {
        SplitRule(type: SplitType.allCases.randomElement(using: &rng)!, entries: (0..<Int.random(in: 0...3, using: &rng)).map { _ in
            SplitEntry(memberId: string(&rng), value: Bool.random(using: &rng) ? nil : decimal(&rng))
        })
    }

    static func of<T>(_ rng: inout SplitMix64, _ values: [T]) -> T { values.randomElement(using: &rng)! }
}

/// `value`'s line decoded: checks the line is one line ending in a line
/// feed, and that the decoded value encodes to the same bytes (strings are
/// compared byte for byte, which `String.==` does not do).
func wireRoundTrip<Record: WireRecord>(_ value: Record, sourceLocation: SourceLocation = #_sourceLocation) throws -> Record {
    let line = value.wireLine
    #expect(line.last == UInt8(ascii: "\n"), sourceLocation: sourceLocation)
    #expect(!line.dropLast().contains(UInt8(ascii: "\n")) && !line.contains(UInt8(ascii: "\r")), sourceLocation: sourceLocation)
    let back = try WireLineReader.records(Record.self, in: line)
    #expect(back.count == 1, sourceLocation: sourceLocation)
    #expect(back[0].wireLine == line, "\(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
    #expect(try viaBinaryFields(value).wireLine == line, "binary fields of \(String(decoding: line, as: UTF8.self))",
            sourceLocation: sourceLocation)
    return back[0]
}

/// `value` written in the binary field form and read back.
func viaBinaryFields<Record: WireRecord>(_ value: Record) throws -> Record {
    var writer = WireWriter(binary: true)
    writer.appendFields(value)
    return try writer.bytes.withUnsafeBufferPointer { try WireFields.decodeBinary(Record.self, from: $0, number: 1) }
}

/// The decoded form of `value`'s line.
func viaWire<Record: WireRecord>(_ value: Record) throws -> Record {
    try WireLineReader.records(Record.self, in: value.wireLine)[0]
}

/// The error decoding `text` as `Record` throws, or nil.
func wireError<Record: WireRecord>(_ text: String, as type: Record.Type) -> WireError? {
    do {
        _ = try WireLineReader.records(Record.self, in: Array(text.utf8))
        return nil
    } catch {
        return error
    }
}

/// Runs `body`, recording what it throws as a failure (property bodies cannot throw).
func withoutThrowing(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
    } catch {
        Issue.record("threw \(error)", sourceLocation: sourceLocation)
    }
}

// Small builders that keep the tests readable.

let brl = Currency(code: "BRL")!
let usd = Currency(code: "USD")!
let jpy = Currency(code: "JPY")!

/// A date from `YYYY-MM-DD`.
func day(_ text: String) -> LocalDate {
    guard let date = LocalDate.parse(text) else { fatalError("bad date \(text)") }
    return date
}

/// An instant from ISO 8601 text with an offset (`2026-10-03T21:15:00-03:00`).
func ts(_ text: String) -> Timestamp {
    guard case .success(let value) = Timestamp.parse(text) else { fatalError("bad timestamp \(text)") }
    return value
}

/// A split rule from contract text: `rule(.shares, "m1:2;m2:1")`, `rule(.full, "m2")`.
func rule(_ type: SplitType, _ text: String = "") -> SplitRule {
    let entries = text.split(separator: ";").map { pair -> SplitEntry in
        let parts = pair.split(separator: ":", maxSplits: 1)
        guard parts.count > 1 else { return SplitEntry(memberId: String(parts[0]), value: nil) }
        guard case .success(let value) = Decimal10.parse(String(parts[1])) else { fatalError("bad decimal \(parts[1])") }
        return SplitEntry(memberId: String(parts[0]), value: value)
    }
    return SplitRule(type: type, entries: entries)
}

/// The keys of lines sorted as bytes, one per run of equal keys, in the
/// runs' order; records an issue for a key whose lines are not one run.
func keyRuns(_ keysOfSortedLines: [[UInt8]]) -> [[UInt8]] {
    var runs: [[UInt8]] = []
    var seen = Set<[UInt8]>()
    for key in keysOfSortedLines where key != runs.last {
        #expect(seen.insert(key).inserted, "key \(key) split in the sorted lines")
        runs.append(key)
    }
    return runs
}
