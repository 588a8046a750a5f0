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
public struct WireWriter: Sendable {
    /// The lines written so far.
    public var bytes: [UInt8]

    public init(reservingCapacity capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
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

    /// Writes every record of `records`, one line each.
    public mutating func append<Records: Sequence>(contentsOf records: Records) where Records.Element: WireRecord {
        for record in records { append(record) }
    }

    @inline(__always)
    private mutating func open() { bytes.append(WireEscaping.tab) }

    // MARK: - Fields

    /// A string field, escaped.
    public mutating func string(_ value: String) {
        open()
        var value = value
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
        WireEscaping.escape(value, into: &bytes)
    }

    /// A field holding any bytes, or `\N` for nil.
    public mutating func optionalByteString(_ value: [UInt8]?) {
        guard let value else { return null() }
        byteString(value)
    }

    /// The nil field, `\N`.
    public mutating func null() {
        open()
        bytes.append(contentsOf: WireEscaping.nilField)
    }

    /// An integer in decimal (`-1234`).
    public mutating func int(_ value: Int64) {
        open()
        appendDigits(value)
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
    }

    /// An exact decimal with exactly its scale's digits after the point (`0.0365`, `2.50`, `7`).
    public mutating func decimal(_ value: Decimal10) {
        open()
        var magnitude = value.mantissa.magnitude
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
