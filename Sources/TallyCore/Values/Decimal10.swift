/// An exact decimal number: `mantissa × 10^-scale`.
///
/// Used for the values that are decimals but not money: fx rates, split
/// weights and percentages. Parsing is strict: optional `-`, digits, an
/// optional `.` followed by at least one digit. No exponent, no thousands
/// separator, no comma decimal.
public struct Decimal10: Hashable, Sendable, CustomStringConvertible {
    public let mantissa: Int64
    public let scale: Int

    public init(mantissa: Int64, scale: Int) {
        self.mantissa = mantissa
        self.scale = scale
    }

    /// Why a decimal string was refused.
    public enum ParseError: Error, Equatable, Sendable {
        case empty
        case invalidCharacter
        case tooManyDecimals(allowed: Int)
        case outOfRange
    }

    /// Parses `-12.345`. `maxScale` caps the digits after the point.
    /// Inlinable, so each caller's collection of bytes gets a specialised copy.
    @inlinable
    public static func parse<S: Collection<UInt8>>(utf8 text: S, maxScale: Int = 12) -> Result<Decimal10, ParseError> {
        var iterator = text.makeIterator()
        var negative = false
        var mantissa: Int64 = 0
        var scale = 0
        var sawDigit = false
        var sawPoint = false
        var first = true
        var digitsAfterPoint = 0
        while let byte = iterator.next() {
            defer { first = false }
            switch byte {
            case UInt8(ascii: "-") where first:
                negative = true
            case UInt8(ascii: "+") where first:
                break
            case UInt8(ascii: "."):
                if sawPoint || !sawDigit { return .failure(.invalidCharacter) }
                sawPoint = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                sawDigit = true
                if sawPoint {
                    digitsAfterPoint += 1
                    if digitsAfterPoint > maxScale { return .failure(.tooManyDecimals(allowed: maxScale)) }
                    scale += 1
                }
                let (m1, o1) = mantissa.multipliedReportingOverflow(by: 10)
                let (m2, o2) = m1.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                if o1 || o2 { return .failure(.outOfRange) }
                mantissa = m2
            default:
                return .failure(.invalidCharacter)
            }
        }
        if !sawDigit { return .failure(first ? .empty : .invalidCharacter) }
        if sawPoint && digitsAfterPoint == 0 { return .failure(.invalidCharacter) }
        return .success(Decimal10(mantissa: negative ? -mantissa : mantissa, scale: scale))
    }

    /// Parses a Swift string; see ``parse(utf8:maxScale:)``.
    public static func parse(_ text: String, maxScale: Int = 12) -> Result<Decimal10, ParseError> {
        parse(utf8: text.utf8, maxScale: maxScale)
    }

    /// This value with `newScale` digits after the point, or nil when digits would be lost or it overflows.
    public func rescaled(to newScale: Int) -> Int64? {
        if newScale == scale { return mantissa }
        if newScale > scale {
            let (v, o) = mantissa.multipliedReportingOverflow(by: Decimal10.pow10(newScale - scale))
            return o ? nil : v
        }
        let div = Decimal10.pow10(scale - newScale)
        return mantissa % div == 0 ? mantissa / div : nil
    }

    public var isNegative: Bool { mantissa < 0 }
    public var isZero: Bool { mantissa == 0 }

    public var description: String { Decimal10.format(mantissa, scale: scale) }

    /// Formats `value × 10^-scale` with exactly `scale` digits after the point (`-0.05`).
    ///
    /// The digits are written from the last one back into a buffer on the
    /// stack and made a String once: every amount of every CSV goes through here.
    public static func format(_ value: Int64, scale: Int) -> String {
        if scale == 0 { return String(value) }
        precondition(scale > 0 && scale <= 18, "a scale of \(scale) is not 0 to 18")
        // A sign, up to 19 whole digits, the point and up to 18 decimals.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            var magnitude = value.magnitude
            var at = buffer.count
            func digit() {
                at -= 1
                buffer[at] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            }
            for _ in 0..<scale { digit() }
            at -= 1
            buffer[at] = UInt8(ascii: ".")
            repeat { digit() } while magnitude > 0
            if value < 0 {
                at -= 1
                buffer[at] = UInt8(ascii: "-")
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[at...]), as: UTF8.self)
        }
    }

    /// 10^n for n in 0...18.
    public static func pow10(_ n: Int) -> Int64 {
        precondition(n >= 0 && n <= 18, "10^\(n) does not fit in Int64")
        var value: Int64 = 1
        for _ in 0..<n { value *= 10 }
        return value
    }
}
