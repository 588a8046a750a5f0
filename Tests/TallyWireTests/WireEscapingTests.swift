import PropertyBased
import Testing
@testable import TallyCore
@testable import TallyWire

/// The escapes: any byte string survives a field, and a byte sort of lines
/// keeps each key's lines together.
@Suite("Wire: escapes, fields and grouping")
struct WireEscapingTests {
    /// Bytes that are mostly the ones the format treats specially.
    static let awkwardBytes: [UInt8] = [0x09, 0x0A, 0x0D, 0x5C, UInt8(ascii: "N"), UInt8(ascii: "t"), 0x00, 0x20, 0x61, 0xC3, 0xA4, 0xFF, 0x80]

    /// A record of two byte-string fields (the first the key), one of them optional: the escapes through a whole line.
    struct Bytes: WireRecord, Equatable {
        static let wireKind = "test-bytes"
        static let wireVersion = 1
        static let wireKeyFieldCount = 1
        var key: [UInt8]
        var value: [UInt8]?

        func encode(into writer: inout WireWriter) {
            writer.byteString(key)
            writer.optionalByteString(value)
        }

        init(key: [UInt8], value: [UInt8]?) {
            self.key = key
            self.value = value
        }

        init(fields: inout WireFields) throws(WireError) {
            key = try fields.byteString("key")
            value = try fields.optionalByteString("value")
        }
    }

    @Test func anyBytesRoundTripThroughTheEscapes() async {
        await propertyCheck(count: 500, input: Gen.uint8().array(of: 0...40), Gen.int(in: 0...12).array(of: 0...20)) { a, picks in
            let b = picks.map { Self.awkwardBytes[$0] }
            withoutThrowing { () throws in
                for bytes in [a, b] {
                    let escaped = WireEscaping.escaped(bytes)
                    #expect(!escaped.contains(0x09) && !escaped.contains(0x0A) && !escaped.contains(0x0D))
                    #expect(escaped != WireEscaping.nilField)
                    #expect(try WireEscaping.unescaped(escaped) == bytes)
                }
                for record in [Bytes(key: a, value: b), Bytes(key: b, value: nil), Bytes(key: [], value: []), Bytes(key: a, value: a)] {
                    #expect(try wireRoundTrip(record) == record)
                }
            }
        }
    }

    @Test func nilAndEmptyStayApart() throws {
        let empty = Bytes(key: [], value: [])
        let none = Bytes(key: [], value: nil)
        let backslashN = Bytes(key: [], value: Array("\\N".utf8))
        #expect(String(decoding: empty.wireLine, as: UTF8.self) == "test-bytes.v1\t\t\n")
        #expect(String(decoding: none.wireLine, as: UTF8.self) == "test-bytes.v1\t\t\\N\n")
        #expect(String(decoding: backslashN.wireLine, as: UTF8.self) == "test-bytes.v1\t\t\\\\N\n")
        #expect(try wireRoundTrip(empty) == empty)
        #expect(try wireRoundTrip(none) == none)
        #expect(try wireRoundTrip(backslashN) == backslashN)
    }

    @Test func aByteSortKeepsEachKeysLinesTogether() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...12).array(of: 0...4).array(of: 1...6), Gen.uint64()) { picks, seed in
            let keys = picks.map { $0.map { Self.awkwardBytes[$0] } }
            withoutThrowing { () throws in
                var rng = SplitMix64(seed: seed)
                var lines: [(key: [UInt8], line: [UInt8])] = []
                for key in keys {
                    for _ in 0..<Int.random(in: 1...3, using: &rng) {
                        let value = (0..<Int.random(in: 0...4, using: &rng)).map { _ in Self.awkwardBytes.randomElement(using: &rng)! }
                        lines.append((key, Bytes(key: key, value: Bool.random(using: &rng) ? nil : value).wireLine))
                    }
                }
                lines.shuffle(using: &rng)
                let sorted = lines.sorted { $0.line.lexicographicallyPrecedes($1.line) }
                // Each key's lines form one run.
                _ = keyRuns(sorted.map(\.key))
                // The key bytes of a line are those of its key's escaped form.
                for entry in sorted {
                    entry.line.withUnsafeBufferPointer { buffer in
                        var reader = WireLineReader(buffer)
                        let line = try! reader.next()!
                        #expect(Array(line.key(of: Bytes.self)) == WireEscaping.escaped(entry.key))
                    }
                }
            }
        }
    }

    @Test func keysWithoutControlBytesKeepTheirByteOrder() async {
        let printable: [UInt8] = [0x20, 0x41, 0x5B, 0x5C, 0x5D, 0x61, 0x7E, 0xC3, 0xA4, 0xFF]
        await propertyCheck(count: 300, input: Gen.int(in: 0...9).array(of: 0...5), Gen.int(in: 0...9).array(of: 0...5)) { x, y in
            let a = x.map { printable[$0] }, b = y.map { printable[$0] }
            withoutThrowing { () throws in
                let lineA = Bytes(key: a, value: Array("zz".utf8)).wireLine, lineB = Bytes(key: b, value: nil).wireLine
                if a != b { #expect(lineA.lexicographicallyPrecedes(lineB) == a.lexicographicallyPrecedes(b)) }
            }
        }
    }

    @Test func composedAndDecomposedAccentsAreTwoKeys() throws {
        let composed = "\u{E4}", decomposed = "a\u{308}"
        #expect(composed == decomposed)   // Swift compares strings by canonical equivalence…
        let members = [Member(id: "m1", coupleId: composed, displayName: "A"), Member(id: "m2", coupleId: decomposed, displayName: "B"),
                       Member(id: "m3", coupleId: composed, displayName: "C")]
        var writer = WireWriter()
        writer.append(contentsOf: members)
        var lines: [[UInt8]] = []
        var keys: [[UInt8]] = []
        try WireLineReader.forEachLine(in: writer.bytes) { line in
            lines.append(Array(line.bytes))
            keys.append(Array(line.key(of: Member.self)))
        }
        // …the wire does not: the keys' bytes differ, and a byte sort puts them in two groups.
        #expect(keys[0] == Array(composed.utf8) && keys[1] == Array(decomposed.utf8) && keys[0] != keys[1])
        let sorted = lines.sorted { $0.lexicographicallyPrecedes($1) }.map { Array($0.split(separator: 0x09)[1]) }
        #expect(sorted == [Array(decomposed.utf8), Array(composed.utf8), Array(composed.utf8)])
        let back = try WireLineReader.records(Member.self, in: writer.bytes)
        #expect(back.map { Array($0.coupleId.utf8) } == members.map { Array($0.coupleId.utf8) })
    }

    @Test func numbersAndDatesAreWrittenInTheirDocumentedForms() {
        var writer = WireWriter()
        writer.int(Int64.min)
        writer.decimal(Decimal10(mantissa: -5, scale: 3))
        writer.decimal(Decimal10(mantissa: 250, scale: 2))
        writer.decimal(Decimal10(mantissa: 7, scale: 0))
        writer.double(0.1)
        writer.double(-0.0)
        writer.date(LocalDate(year: 26, month: 3, day: 4)!)
        writer.month(YearMonth(year: 2026, month: 10)!)
        writer.timestamp(ts("2026-10-04T00:00:00Z"))
        writer.currency(brl)
        writer.currency(Currency(code: "BRL", minorUnits: 3))
        writer.bool(true)
        #expect(String(decoding: writer.bytes, as: UTF8.self)
            == "\t-9223372036854775808\t-0.005\t2.50\t7\t0.1\t-0.0\t0026-03-04\t2026-10\t1791072000000000\tBRL\tBRL:3\t1")
    }
}
