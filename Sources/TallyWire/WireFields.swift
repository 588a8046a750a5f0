import Foundation
import TallyCore

/// The fields of one wire line after its tag, read in order at the byte
/// level: what ``WireRecord/init(fields:)`` consumes.
///
/// Each method reads the next field and names it, so an error says which
/// field is wrong: `line 12: expense.v1, field 5 (amount): '12x' is not an
/// integer`. Numbers, dates and instants are parsed from the line's bytes in
/// place; a string is copied once, into the `String` it becomes (unescaped
/// on the way when it holds a `\`).
///
/// The same methods read the binary field form (``WireWriter/binary``):
/// ``decodeBinary(_:from:number:)``.
public struct WireFields {
    /// The line read.
    public let line: WireLine
    /// Whether the fields are in the binary field form.
    private let binary: Bool
    /// Where the next field starts; past `line.bytes.count` when every field was read.
    private var position: Int
    /// How many fields were read.
    private var read = 0
    /// The name of the field last read, for the message of a line that ends early or goes on.
    private var lastName: StaticString = "tag"
    /// Whether the binary field last read was nil.
    private var lastNil = false

    init(_ line: WireLine, binary: Bool = false) {
        self.line = line
        self.binary = binary
        self.position = line.fieldsStart
    }

    /// Reads a record of `Record` from its fields in the binary field form
    /// (``WireWriter/appendFields(_:)`` of a binary writer, this version's).
    /// `number` names the record in errors.
    public static func decodeBinary<Record: WireRecord>(_ type: Record.Type, from bytes: UnsafeBufferPointer<UInt8>,
                                                        number: Int) throws(WireError) -> Record {
        var fields = WireFields(WireLine(binaryFields: bytes, number: number, version: Record.wireVersion), binary: true)
        do {
            let record = try Record(fields: &fields)
            try fields.finish()
            return record
        } catch {
            var named = error
            named.kind = "\(Record.wireTag) (binary fields)"
            throw named
        }
    }

    /// The line's version (``WireRecord/wireVersion`` or an older one it still reads).
    public var version: Int { line.version }

    // MARK: - Errors

    /// An error naming the field last read.
    public func error(_ reason: String) -> WireError {
        WireError(line: line.number, kind: line.tag, field: read, fieldName: String(describing: lastName), reason: reason)
    }

    /// The number of fields after the tag.
    private var fieldCount: Int {
        guard line.fieldsStart <= line.bytes.count else { return 0 }
        return 1 + line.bytes[line.fieldsStart...].count(where: { $0 == WireEscaping.tab })
    }

    /// Throws when fields are left unread.
    func finish() throws(WireError) {
        if binary {
            guard position == line.bytes.count else {
                throw WireError(line: line.number, kind: line.tag,
                                reason: "has bytes left after its \(read) fields (the last is \(lastName))")
            }
            return
        }
        guard position > line.bytes.count else {
            throw WireError(line: line.number, kind: line.tag,
                            reason: "has \(fieldCount) fields after its tag, \(read) expected (the last is \(lastName))")
        }
    }

    // MARK: - Raw fields

    /// The next field as it is on the wire (escaped).
    public mutating func raw(_ name: StaticString) throws(WireError) -> UnsafeBufferPointer<UInt8> {
        read += 1
        lastName = name
        let bytes = line.bytes
        if binary { return try binaryRaw(bytes) }
        guard position <= bytes.count else {
            throw error("is missing: the line has \(fieldCount) field\(fieldCount == 1 ? "" : "s") after its tag")
        }
        var end = position
        while end < bytes.count && bytes[end] != WireEscaping.tab { end += 1 }
        let field = UnsafeBufferPointer(rebasing: bytes[position..<end])
        position = end + 1
        return field
    }

    /// The next binary field: its length plus one as a varint (0: nil), then its bytes.
    private mutating func binaryRaw(_ bytes: UnsafeBufferPointer<UInt8>) throws(WireError) -> UnsafeBufferPointer<UInt8> {
        var marker: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.count, shift < 63 else { throw error("is missing: the record ends before it") }
            let byte = bytes[position]
            position += 1
            marker |= UInt64(byte & 0x7f) << shift
            shift += 7
            if byte < 0x80 { break }
        }
        lastNil = marker == 0
        let length = Int(marker == 0 ? 0 : marker - 1)
        guard length <= bytes.count - position else { throw error("runs past the record's end") }
        defer { position += length }
        return UnsafeBufferPointer(rebasing: bytes[position..<(position + length)])
    }

    /// Whether `field`, the field last read, is nil: `\N` on a line.
    private func isNil(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        binary ? lastNil : field.count == 2 && field[0] == WireEscaping.backslash && field[1] == UInt8(ascii: "N")
    }

    /// The next field, or nil when it is `\N`.
    private mutating func optionalRaw(_ name: StaticString) throws(WireError) -> UnsafeBufferPointer<UInt8>? {
        let field = try raw(name)
        return isNil(field) ? nil : field
    }

    /// The next field, refusing `\N`.
    private mutating func requiredRaw(_ name: StaticString) throws(WireError) -> UnsafeBufferPointer<UInt8> {
        let field = try raw(name)
        if isNil(field) { throw error("is nil (\\N) but the field is required") }
        return field
    }

    private func shown(_ field: UnsafeBufferPointer<UInt8>) -> String { "'" + WireLine.shown(field) + "'" }

    // MARK: - Strings and bytes

    /// The value of an escaped field: nil when it holds no escape (the field is its value).
    private func unescaped(_ field: UnsafeBufferPointer<UInt8>) throws(WireError) -> [UInt8]? {
        guard !binary, field.contains(WireEscaping.backslash) else { return nil }
        var value: [UInt8] = []
        value.reserveCapacity(field.count)
        do {
            try WireEscaping.unescape(field, into: &value)
        } catch {
            throw self.error(error.description)
        }
        return value
    }

    /// Calls `body` with the next field's value, unescaped; `nil` for `\N`.
    /// No copy is made unless the field holds an escape. `body` must not use these fields.
    public mutating func withOptionalBytes<T>(_ name: StaticString,
                                              _ body: (UnsafeBufferPointer<UInt8>?) throws(WireError) -> T) throws(WireError) -> T {
        guard let field = try optionalRaw(name) else { return try body(nil) }
        guard let value = try unescaped(field) else { return try body(field) }
        return try value.withUnsafeBufferPointer { (buffer) throws(WireError) in try body(buffer) }
    }

    /// Calls `body` with the next field's value, unescaped; `\N` is refused.
    /// `body` must not use these fields.
    public mutating func withBytes<T>(_ name: StaticString,
                                      _ body: (UnsafeBufferPointer<UInt8>) throws(WireError) -> T) throws(WireError) -> T {
        let field = try requiredRaw(name)
        guard let value = try unescaped(field) else { return try body(field) }
        return try value.withUnsafeBufferPointer { (buffer) throws(WireError) in try body(buffer) }
    }

    /// The next field's value as bytes (any bytes, invalid UTF-8 included).
    public mutating func byteString(_ name: StaticString) throws(WireError) -> [UInt8] {
        try withBytes(name) { Array($0) }
    }

    /// The next field's value as bytes, or nil for `\N`.
    public mutating func optionalByteString(_ name: StaticString) throws(WireError) -> [UInt8]? {
        try withOptionalBytes(name) { bytes in bytes.map { Array($0) } }
    }

    /// The next field as a string; its bytes must be valid UTF-8.
    public mutating func string(_ name: StaticString) throws(WireError) -> String {
        let text = try withBytes(name) { Self.text($0) }
        guard let text else { throw error("is not valid UTF-8") }
        return text
    }

    /// The next field as a string, or nil for `\N`.
    public mutating func optionalString(_ name: StaticString) throws(WireError) -> String? {
        let read = try withOptionalBytes(name) { bytes -> (text: String?, valid: Bool) in
            guard let bytes else { return (nil, true) }
            let text = Self.text(bytes)
            return (text, text != nil)
        }
        guard read.valid else { throw error("is not valid UTF-8") }
        return read.text
    }

    /// `bytes` as a string, or nil when they are not valid UTF-8.
    ///
    /// `String(decoding:as:)` has a fast path for buffers of bytes; it
    /// replaces invalid sequences with U+FFFD, which changes the bytes, so
    /// comparing them (`memcmp`) tells whether any were invalid.
    /// (`String(validating:)` runs unspecialized here, looking up type
    /// metadata on every call.)
    static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var text = String(decoding: bytes, as: UTF8.self)
        let valid = text.withUTF8 { decoded in
            decoded.count == bytes.count && (bytes.isEmpty || memcmp(decoded.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
        return valid ? text : nil
    }

    /// The next field as an enumeration case by raw value (`super_like`).
    public mutating func enumeration<Value: RawRepresentable & CaseIterable>(_ name: StaticString, _ type: Value.Type) throws(WireError) -> Value
    where Value.RawValue == String {
        let field = try requiredRaw(name)
        for value in Value.allCases {
            var spelling = value.rawValue
            if spelling.withUTF8({ $0.count == field.count && $0.elementsEqual(field) }) { return value }
        }
        let spellings = Value.allCases.map(\.rawValue).joined(separator: ", ")
        throw error("\(shown(field)) is not one of \(spellings)")
    }

    // MARK: - Numbers

    /// The next field as a decimal integer (`-1234`).
    public mutating func int64(_ name: StaticString) throws(WireError) -> Int64 {
        let field = try requiredRaw(name)   // read first: `integer` names the field last read
        return try integer(field)
    }

    /// The next field as an integer, or nil for `\N`.
    public mutating func optionalInt64(_ name: StaticString) throws(WireError) -> Int64? {
        guard let field = try optionalRaw(name) else { return nil }
        return try integer(field)
    }

    /// `field` as an integer: decimal digits on a line, little-endian
    /// two's-complement bytes in the binary form.
    private func integer(_ field: UnsafeBufferPointer<UInt8>) throws(WireError) -> Int64 {
        if binary {
            guard (1...8).contains(field.count) else { throw error("has \(field.count) bytes, not an integer's 1 to 8") }
            var value = Int64(Int8(bitPattern: field[field.count - 1]))
            for i in stride(from: field.count - 2, through: 0, by: -1) { value = value << 8 | Int64(field[i]) }
            return value
        }
        guard let value = Self.integer(field) else { throw error("\(shown(field)) is not an integer") }
        return value
    }

    /// The next field as an integer of the platform's width.
    public mutating func int(_ name: StaticString) throws(WireError) -> Int {
        let value = try int64(name)
        guard let exact = Int(exactly: value) else { throw error("\(value) is out of range") }
        return exact
    }

    /// The next field as a list's length, at least 0 and at most the fields left on the line.
    public mutating func count(_ name: StaticString) throws(WireError) -> Int {
        let value = try int(name)
        guard value >= 0, value <= line.bytes.count - position + (binary ? 0 : 1) else { throw error("\(value) is not a possible count") }
        return value
    }

    /// The next field as `1` (true) or `0` (false).
    public mutating func bool(_ name: StaticString) throws(WireError) -> Bool {
        let field = try requiredRaw(name)
        guard field.count == 1, field[0] == UInt8(ascii: "0") || field[0] == UInt8(ascii: "1") else {
            throw error("\(shown(field)) is not 0 or 1")
        }
        return field[0] == UInt8(ascii: "1")
    }

    /// Digits with an optional leading `-`, within Int64; nil otherwise.
    static func integer(_ field: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard !field.isEmpty else { return nil }
        let negative = field[0] == UInt8(ascii: "-")
        let first = negative ? 1 : 0
        guard field.count > first, field.count - first <= 20 else { return nil }
        var magnitude: UInt64 = 0
        for i in first..<field.count {
            let digit = field[i] &- UInt8(ascii: "0")
            guard digit <= 9 else { return nil }
            let (m1, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (m2, o2) = m1.addingReportingOverflow(UInt64(digit))
            if o1 || o2 { return nil }
            magnitude = m2
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// The next field as an exact decimal (`-0.0365`): its digits after the point are its scale.
    public mutating func decimal(_ name: StaticString) throws(WireError) -> Decimal10 {
        let field = try requiredRaw(name)
        guard let value = Self.decimal(field) else { throw error("\(shown(field)) is not an exact decimal") }
        return value
    }

    /// The next field as an exact decimal, or nil for `\N`.
    public mutating func optionalDecimal(_ name: StaticString) throws(WireError) -> Decimal10? {
        guard let field = try optionalRaw(name) else { return nil }
        guard let value = Self.decimal(field) else { throw error("\(shown(field)) is not an exact decimal") }
        return value
    }

    static func decimal(_ field: UnsafeBufferPointer<UInt8>) -> Decimal10? {
        guard let point = field.firstIndex(of: UInt8(ascii: ".")) else {
            return integer(field).map { Decimal10(mantissa: $0, scale: 0) }
        }
        let scale = field.count - point - 1
        guard scale > 0, scale <= 18 else { return nil }
        // The digits without the point, as one integer.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: field.count) { digits -> Decimal10? in
            var n = 0
            for i in field.indices where i != point {
                digits[n] = field[i]
                n += 1
            }
            let start = field[0] == UInt8(ascii: "-") ? 1 : 0
            guard point > start else { return nil }
            return integer(UnsafeBufferPointer(rebasing: digits[0..<n])).map { Decimal10(mantissa: $0, scale: scale) }
        }
    }

    /// The next field as a double (its shortest round-trip decimal, `inf`, `-inf`, `nan`).
    public mutating func double(_ name: StaticString) throws(WireError) -> Double {
        let field = try requiredRaw(name)
        // Short fields make a small string, which lives inline: no allocation.
        guard field.count <= 40, let value = Double(String(decoding: field, as: UTF8.self)) else {
            throw error("\(shown(field)) is not a number")
        }
        return value
    }

    // MARK: - Dates, instants, money

    /// The next field as an ISO 8601 date (`2026-10-03`).
    public mutating func date(_ name: StaticString) throws(WireError) -> LocalDate {
        let field = try requiredRaw(name)
        guard let value = LocalDate.parse(utf8: field) else { throw error("\(shown(field)) is not a date (YYYY-MM-DD)") }
        return value
    }

    /// The next field as a date, or nil for `\N`.
    public mutating func optionalDate(_ name: StaticString) throws(WireError) -> LocalDate? {
        guard let field = try optionalRaw(name) else { return nil }
        guard let value = LocalDate.parse(utf8: field) else { throw error("\(shown(field)) is not a date (YYYY-MM-DD)") }
        return value
    }

    /// The next field as an ISO 8601 month (`2026-10`).
    public mutating func month(_ name: StaticString) throws(WireError) -> YearMonth {
        let field = try requiredRaw(name)
        guard field.count == 7, field[4] == UInt8(ascii: "-"),
              let year = Self.integer(UnsafeBufferPointer(rebasing: field[0..<4])),
              let month = Self.integer(UnsafeBufferPointer(rebasing: field[5..<7])),
              field[0] != UInt8(ascii: "-"), field[5] != UInt8(ascii: "-"),
              let value = YearMonth(year: Int(year), month: Int(month)) else {
            throw error("\(shown(field)) is not a month (YYYY-MM)")
        }
        return value
    }

    /// The next field as an instant in microseconds since the epoch.
    public mutating func timestamp(_ name: StaticString) throws(WireError) -> Timestamp {
        Timestamp(microseconds: try int64(name))
    }

    /// The next field as an instant, or nil for `\N`.
    public mutating func optionalTimestamp(_ name: StaticString) throws(WireError) -> Timestamp? {
        try optionalInt64(name).map(Timestamp.init(microseconds:))
    }

    /// The next field as a currency: `BRL` (ISO 4217's minor units) or `XTS:4`.
    public mutating func currency(_ name: StaticString) throws(WireError) -> Currency {
        let field = try requiredRaw(name)
        let colon = field.firstIndex(of: UInt8(ascii: ":"))
        let code = UnsafeBufferPointer(rebasing: field[0..<(colon ?? field.count)])
        guard !code.isEmpty, code.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else {
            throw error("\(shown(field)) is not a currency code")
        }
        let text = String(decoding: code, as: UTF8.self)
        guard let colon else {
            guard let currency = Currency(code: text) else {
                throw error("\(shown(field)) is not an ISO 4217 code (others are written CODE:minorUnits)")
            }
            return currency
        }
        guard let units = Self.integer(UnsafeBufferPointer(rebasing: field[(colon + 1)...])), (0...18).contains(units) else {
            throw error("\(shown(field)) has no minor units from 0 to 18 after its ':'")
        }
        return Currency(code: text, minorUnits: Int(units))
    }

    /// Money: two fields, the amount in minor units and the currency.
    public mutating func money(_ amount: StaticString, _ currency: StaticString) throws(WireError) -> Money {
        let minor = try int64(amount)
        return Money(minor: minor, currency: try self.currency(currency))
    }
}
