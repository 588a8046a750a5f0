import TallyCore

/// Typed access to the fields of one record, with errors that name the field.
///
/// Wraps a ``RecordView`` (valid only during the reader's callback) and the
/// table's field names. Numbers, dates and timestamps are parsed from the
/// field bytes without making Strings.
public struct FieldDecoder {
    public let view: RecordView
    public let fields: [String]

    public init(view: RecordView, fields: [String]) {
        self.view = view
        self.fields = fields
    }

    public var line: Int { view.line }

    /// The field as text, nil when empty or absent.
    public func optional(_ index: Int) -> String? { view.string(index) }

    /// The field as text; empty is an error.
    public func required(_ index: Int) throws(FieldError) -> String {
        guard let value = view.string(index) else { throw FieldError(.empty(fields[index])) }
        return value
    }

    /// The field's bytes (a view into the reader's buffer, valid during its
    /// callback); empty is an error, worded as ``required(_:)`` words it.
    public func requiredBytes(_ index: Int) throws(FieldError) -> UnsafeBufferPointer<UInt8> {
        guard let bytes = view.bytes(index) else { throw FieldError(.empty(fields[index])) }
        return bytes
    }

    /// An ISO 4217 currency code that tally knows.
    public func currency(_ index: Int) throws(FieldError) -> Currency {
        let code = try required(index)
        guard let currency = Currency(code: code) else {
            throw FieldError(.currencyUnknown(field: fields[index], value: String(code.prefix(40))))
        }
        return currency
    }

    /// Money in `currency` minor units.
    public func money(_ index: Int, currency: Currency) throws(FieldError) -> Int64 {
        guard let bytes = view.bytes(index) else { throw FieldError(.empty(fields[index])) }
        switch Money.parseMinor(utf8: bytes, currency: currency) {
        case .success(let minor): return minor
        case .failure(let error): throw FieldError(.amount(fields[index], error))
        }
    }

    /// A `YYYY-MM-DD` date.
    public func date(_ index: Int) throws(FieldError) -> LocalDate {
        guard let bytes = view.bytes(index) else { throw FieldError(.empty(fields[index])) }
        guard let date = LocalDate.parse(utf8: bytes) else {
            throw FieldError(.dateInvalid(field: fields[index], value: Self.shown(bytes)))
        }
        return date
    }

    /// An optional `YYYY-MM-DD` date.
    public func optionalDate(_ index: Int) throws(FieldError) -> LocalDate? {
        view.isPresent(index) ? try date(index) : nil
    }

    /// An ISO 8601 timestamp with an offset.
    public func timestamp(_ index: Int) throws(FieldError) -> Timestamp {
        guard let bytes = view.bytes(index) else { throw FieldError(.empty(fields[index])) }
        switch Timestamp.parse(utf8: bytes) {
        case .success(let ts): return ts
        case .failure(.missingOffset):
            throw FieldError(.timestampNoOffset(field: fields[index], value: Self.shown(bytes)))
        case .failure(.impossibleDate):
            throw FieldError(.timestampInvalid(field: fields[index], value: Self.shown(bytes), isISO8601: true))
        case .failure(.notISO8601):
            throw FieldError(.timestampInvalid(field: fields[index], value: Self.shown(bytes), isISO8601: false))
        }
    }

    /// An optional ISO 8601 timestamp.
    public func optionalTimestamp(_ index: Int) throws(FieldError) -> Timestamp? {
        view.isPresent(index) ? try timestamp(index) : nil
    }

    /// A whole number within `range`.
    public func integer(_ index: Int, in range: ClosedRange<Int64>) throws(FieldError) -> Int64 {
        let value = try decimal(index)
        guard let whole = value.rescaled(to: 0) else {
            throw FieldError(.numberNotWhole(field: fields[index], value: "\(value)"))
        }
        guard range.contains(whole) else {
            throw FieldError(.numberOutOfRange(field: fields[index], value: "\(whole)", range: range))
        }
        return whole
    }

    /// An exact decimal.
    public func decimal(_ index: Int) throws(FieldError) -> Decimal10 {
        guard let bytes = view.bytes(index) else { throw FieldError(.empty(fields[index])) }
        switch Decimal10.parse(utf8: bytes) {
        case .success(let value): return value
        case .failure(.outOfRange): throw FieldError(.numberOutOfRange(field: fields[index], value: Self.shown(bytes)))
        case .failure: throw FieldError(.numberInvalid(field: fields[index], value: Self.shown(bytes)))
        }
    }

    /// One of `choices` (case-sensitive, as the contract spells them).
    public func choice(_ index: Int, _ choices: [String]) throws(FieldError) -> String {
        let value = try required(index)
        guard choices.contains(value) else {
            throw FieldError(.notOneOf(field: fields[index], value: String(value.prefix(40)), choices: choices.joined(separator: ", ")))
        }
        return value
    }

    /// At most 40 characters of a field, for messages.
    static func shown(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes.prefix(40), as: UTF8.self)
        return bytes.count > 40 ? text + "…" : text
    }
}
