import PropertyBased
import Testing
@testable import TallyCore
@testable import TallyWire

/// The binary field form: what a worker keeps for itself (every record
/// kind's round trip through it is checked by `wireRoundTrip`).
@Suite("Wire: binary field form")
struct WireBinaryFieldsTests {
    /// A record of one field of each kind the form writes differently.
    struct Sample: WireRecord, Equatable {
        static let wireKind = "sample"
        static let wireVersion = 1
        static let wireKeyFieldCount = 0
        var text: String
        var optionalText: String?
        var number: Int64
        var optionalNumber: Int64?
        var bytes: [UInt8]
        var date: LocalDate
        var amount: Decimal10

        func encode(into w: inout WireWriter) {
            w.string(text); w.string(optionalText); w.int(number); w.int(optionalNumber)
            w.byteString(bytes); w.date(date); w.decimal(amount)
        }

        init(text: String, optionalText: String?, number: Int64, optionalNumber: Int64?, bytes: [UInt8], date: LocalDate, amount: Decimal10) {
            self.text = text
            self.optionalText = optionalText
            self.number = number
            self.optionalNumber = optionalNumber
            self.bytes = bytes
            self.date = date
            self.amount = amount
        }

        init(fields f: inout WireFields) throws(WireError) {
            text = try f.string("text")
            optionalText = try f.optionalString("optionalText")
            number = try f.int64("number")
            optionalNumber = try f.optionalInt64("optionalNumber")
            bytes = try f.byteString("bytes")
            date = try f.date("date")
            amount = try f.decimal("amount")
        }
    }

    static func binary(_ sample: Sample) -> [UInt8] {
        var writer = WireWriter(binary: true)
        writer.appendFields(sample)
        return writer.bytes
    }

    static func decoded(_ bytes: [UInt8]) throws -> Sample {
        try bytes.withUnsafeBufferPointer { try WireFields.decodeBinary(Sample.self, from: $0, number: 7) }
    }

    let sample = Sample(text: "a\tb\\N", optionalText: nil, number: -1, optionalNumber: 300, bytes: [0, 10, 13, 92, 255],
                        date: LocalDate(year: 2026, month: 10, day: 3)!, amount: Decimal10(mantissa: -365, scale: 4))

    @Test func fieldsAreLengthPrefixedAndUnescaped() throws {
        let bytes = Self.binary(sample)
        // "a\tb\\N" as it is (5 bytes: length 6), nil (0), -1 in one byte, 300 in two, the bytes as they are.
        #expect(Array(bytes.prefix(6 + 1 + 2 + 3 + 6)) == [6] + Array("a\tb\\N".utf8) + [0] + [2, 0xff] + [3, 0x2c, 0x01]
            + [6, 0, 10, 13, 92, 255])
        #expect(Array(bytes.suffix(19)) == [11] + Array("2026-10-03".utf8) + [8] + Array("-0.0365".utf8))
        #expect(try Self.decoded(bytes) == sample)
    }

    @Test func nilEmptyAndBackslashNAreThreeValues() throws {
        for optional in [nil, "", "\\N"] as [String?] {
            var value = sample
            value.optionalText = optional
            value.text = optional ?? "x"
            #expect(try Self.decoded(Self.binary(value)) == value)
        }
    }

    @Test func integersAtEveryWidth() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            withoutThrowing { () throws in
                var g = SplitMix64(seed: seed)
                let shift = Int64.random(in: 0...63, using: &g)
                var value = sample
                value.number = Int64.random(in: .min ... .max, using: &g) >> shift
                value.optionalNumber = [Int64.min, Int64.max, 0, 127, 128, -128, -129].randomElement(using: &g)!
                #expect(try Self.decoded(Self.binary(value)) == value)
            }
        }
    }

    @Test func aFieldOfAnyLength() throws {
        for length in [126, 127, 128, 300, 20_000] {
            var value = sample
            value.bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0) }
            value.text = String(repeating: "é", count: length)
            #expect(try Self.decoded(Self.binary(value)) == value, "\(length) bytes")
        }
    }

    @Test func aRecordCutShortOrWithBytesLeftIsNamed() {
        let bytes = Self.binary(sample)
        #expect(throws: WireError.self) { try Self.decoded(Array(bytes.dropLast(3))) }
        do {
            _ = try Self.decoded(bytes + [2, 1])
            Issue.record("bytes left after the last field were taken")
        } catch {
            #expect("\(error)".hasPrefix("line 7: sample.v1 (binary fields) has bytes left after its 7 fields"), "\(error)")
        }
        do {
            _ = try Self.decoded(Array(bytes.prefix(6)))
            Issue.record("a missing field was not refused")
        } catch {
            #expect("\(error)".hasPrefix("line 7: sample.v1 (binary fields), field 2 (optionalText): is missing"), "\(error)")
        }
    }
}
