import TallyCore

/// Appends wire lines to a byte buffer: ``append(_:)`` writes a whole
/// record; the field methods are what ``WireRecord/encode(into:)`` calls.
///
/// ```swift
/// var writer = WireWriter()
/// writer.append(Member(id: "m1", coupleId: "c1", displayName: "Ana"))
/// writer.bytes   // "member.v1\tc1\tm1\tAna\n" as UTF-8
/// ```
///
/// Every field method writes the tab that opens the field, then the field.
/// Numbers are written digit by digit into the buffer, strings are escaped
/// byte by byte: nothing is allocated per field but the buffer's growth.
///
/// A writer made with `binary: true` writes the **binary field form**
/// instead, for records a process keeps for itself and reads back
/// (``WireFields/decodeBinary(_:from:number:)``), never for lines between
/// processes: ``appendFields(_:)`` writes a record's fields with no tag and
/// no line feed, each field as a varint (LEB128) of its length plus one
/// (0 is nil) and then its bytes: a string as it is (no escaping), an
/// integer in its fewest little-endian two's-complement bytes, every other
/// value as the text its line field holds.
///
/// ```swift
/// var binary = WireWriter(binary: true)
/// binary.appendFields(member)      // 03 "c1" 03 "m1" 04 "Ana"
/// ```
public struct WireWriter: Sendable {
    /// The lines written so far.
    public var bytes: [UInt8]
    /// Whether fields are written in the binary field form.
    public let binary: Bool
    /// Where the open binary field's length byte is (``open()``, ``close()``).
    private var fieldStart = 0

    public init(reservingCapacity capacity: Int = 0) {
        self.init(binary: false, reservingCapacity: capacity)
    }

    public init(binary: Bool, reservingCapacity capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
        self.binary = binary
    }

    /// Writes `record` as one line: its tag, its fields, a line feed.
    public mutating func append<Record: WireRecord>(_ record: Record) {
        bytes.append(contentsOf: Record.wireKind.utf8)
        bytes.append(UInt8(ascii: "."))
        bytes.append(UInt8(ascii: "v"))
        appendDigits(Int64(Record.wireVersion))
        record.encode(into: &self)
        bytes.append(WireEscaping.lineFeed)
    }

    /// Writes `record`'s fields alone: no tag, no line feed (the binary field form's record).
    public mutating func appendFields<Record: WireRecord>(_ record: Record) {
        record.encode(into: &self)
    }

    /// Writes every record of `records`, one line each.
    public mutating func append<Records: Sequence>(contentsOf records: Records) where Records.Element: WireRecord {
        for record in records { append(record) }
    }

    /// Opens a field: its tab, or in the binary form a length byte that ``close()`` fills in.
    @inline(__always)
    private mutating func open() {
        if binary {
            fieldStart = bytes.count
            bytes.append(0)
        } else {
            bytes.append(WireEscaping.tab)
        }
    }

    /// Closes a field ``open()`` opened: in the binary form, writes its
    /// length (plus one) where ``open()`` left a byte for it.
    @inline(__always)
    private mutating func close() {
        guard binary else { return }
        let length = bytes.count - fieldStart - 1
        if length < 127 {
            bytes[fieldStart] = UInt8(length + 1)
        } else {
            var prefix: [UInt8] = []
            Self.appendVarint(UInt64(length + 1), to: &prefix)
            bytes.replaceSubrange(fieldStart..<(fieldStart + 1), with: prefix)
        }
    }

    /// A binary field holding `field`'s bytes.
    @inline(__always)
    private mutating func binaryField(_ field: UnsafeBufferPointer<UInt8>) {
        Self.appendVarint(UInt64(field.count + 1), to: &bytes)
        bytes.append(contentsOf: field)
    }

    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7f) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    // MARK: - Fields

    /// A string field, escaped.
    public mutating func string(_ value: String) {
        var value = value
        if binary { return value.withUTF8 { binaryField($0) } }
        open()
        value.withUTF8 { utf8 in
            if !utf8.contains(where: WireEscaping.needsEscape) {
                bytes.append(contentsOf: utf8)
            } else {
                WireEscaping.escape(utf8, into: &bytes)
            }
        }
    }

    /// A string field, or `\N` for nil.
    public mutating func string(_ value: String?) {
        guard let value else { return null() }
        string(value)
    }

    /// A field holding any bytes, escaped.
    public mutating func byteString(_ value: some Sequence<UInt8>) {
        open()
        if binary {
            bytes.append(contentsOf: value)
        } else {
            WireEscaping.escape(value, into: &bytes)
        }
        close()
    }

    /// A field holding any bytes, or `\N` for nil.
    public mutating func optionalByteString(_ value: [UInt8]?) {
        guard let value else { return null() }
        byteString(value)
    }

    /// The nil field, `\N`.
    public mutating func null() {
        if binary { return bytes.append(0) }
        open()
        bytes.append(contentsOf: WireEscaping.nilField)
    }

    /// An integer in decimal (`-1234`).
    public mutating func int(_ value: Int64) {
        guard binary else {
            open()
            return appendDigits(value)
        }
        // The fewest bytes whose sign extension gives the value back.
        var count = 1
        while count < 8, value >> (8 * count - 1) != 0, value >> (8 * count - 1) != -1 { count += 1 }
        bytes.append(UInt8(count + 1))
        var rest = value
        for _ in 0..<count {
            bytes.append(UInt8(truncatingIfNeeded: rest))
            rest >>= 8
        }
    }

    /// An integer in decimal.
    public mutating func int(_ value: Int) { int(Int64(value)) }

    /// An integer in decimal, or `\N` for nil.
    public mutating func int(_ value: Int64?) {
        guard let value else { return null() }
        int(value)
    }

    /// A list's length: the fields of its elements follow.
    public mutating func count(_ value: Int) { int(Int64(value)) }

    /// `1` for true, `0` for false.
    public mutating func bool(_ value: Bool) {
        open()
        bytes.append(value ? UInt8(ascii: "1") : UInt8(ascii: "0"))
        close()
    }

    /// An instant as microseconds since 1970-01-01T00:00:00Z (`1791072000000000`).
    public mutating func timestamp(_ value: Timestamp) { int(value.microseconds) }

    /// An instant, or `\N` for nil.
    public mutating func timestamp(_ value: Timestamp?) {
        guard let value else { return null() }
        timestamp(value)
    }

    /// A date in ISO 8601 (`2026-10-03`).
    public mutating func date(_ value: LocalDate) {
        open()
        appendPadded(value.year, width: 4)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(value.month, width: 2)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(value.day, width: 2)
        close()
    }

    /// A date, or `\N` for nil.
    public mutating func date(_ value: LocalDate?) {
        guard let value else { return null() }
        date(value)
    }

    /// A month in ISO 8601 (`2026-10`).
    public mutating func month(_ value: YearMonth) {
        open()
        appendPadded(value.year, width: 4)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(value.month, width: 2)
        close()
    }

    /// An exact decimal with exactly its scale's digits after the point (`0.0365`, `2.50`, `7`).
    public mutating func decimal(_ value: Decimal10) {
        open()
        var magnitude = value.mantissa.magnitude
        defer { close() }
        if value.mantissa < 0 { bytes.append(UInt8(ascii: "-")) }
        guard value.scale > 0 else { return appendDigits(magnitude) }
        // Digits of the magnitude, at least scale + 1 of them, the point before the last `scale`.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20 + value.scale) { digits in
            var n = 0
            repeat {
                digits[n] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                n += 1
            } while magnitude > 0 || n <= value.scale
            for i in stride(from: n - 1, through: 0, by: -1) {
                bytes.append(digits[i])
                if i == value.scale { bytes.append(UInt8(ascii: ".")) }
            }
        }
    }

    /// A decimal, or `\N` for nil.
    public mutating func decimal(_ value: Decimal10?) {
        guard let value else { return null() }
        decimal(value)
    }

    /// A double as its shortest decimal that reads back as the same bits
    /// (`0.1`, `1e-05`, `-0.0`, `inf`); a NaN is `nan`.
    public mutating func double(_ value: Double) {
        open()
        var text = value.description
        text.withUTF8 { bytes.append(contentsOf: $0) }
        close()
    }

    /// A currency: its code when its minor units are ISO 4217's (`BRL`),
    /// else code and minor units (`XTS:4`).
    public mutating func currency(_ value: Currency) {
        open()
        bytes.append(contentsOf: value.code.utf8)
        if Currency.minorUnitsByCode[value.code] != value.minorUnits {
            bytes.append(UInt8(ascii: ":"))
            appendDigits(Int64(value.minorUnits))
        }
        close()
    }

    /// Money: two fields, the amount in minor units and the currency.
    public mutating func money(_ value: Money) {
        int(value.minor)
        currency(value.currency)
    }

    /// An enumeration by its raw value (the contract's spelling: `super_like`).
    public mutating func enumeration<Value: RawRepresentable>(_ value: Value) where Value.RawValue == String {
        string(value.rawValue)
    }

    // MARK: - Digits

    private mutating func appendDigits(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude)
    }

    private mutating func appendDigits(_ value: UInt64) {
        if value < 10 { return bytes.append(UInt8(ascii: "0") + UInt8(value)) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = value
            var n = 0
            while rest > 0 {
                digits[n] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                n += 1
            }
            for i in stride(from: n - 1, through: 0, by: -1) { bytes.append(digits[i]) }
        }
    }

    private mutating func appendPadded(_ value: Int, width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
            rest %= divisor
            divisor /= 10
        }
    }
}
