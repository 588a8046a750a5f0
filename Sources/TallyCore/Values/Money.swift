/// Money: an exact integer amount of a currency's minor units.
public struct Money: Hashable, Sendable, CustomStringConvertible {
    /// The amount in minor units (cents for BRL).
    public var minor: Int64
    public let currency: Currency

    public init(minor: Int64, currency: Currency) {
        self.minor = minor
        self.currency = currency
    }

    /// Why a money string was refused, in words a person can act on.
    public enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        case empty
        case invalid(String)
        case tooManyDecimals(String, currency: String, allowed: Int)
        case outOfRange(String)

        public var description: String {
            switch self {
            case .empty: return "amount is empty"
            case .invalid(let text): return "amount '\(text)' is not a decimal number like 1234.56 (no comma decimal, no thousands separator)"
            case .tooManyDecimals(let text, let currency, let allowed):
                return "amount '\(text)' has more than \(allowed) decimal\(allowed == 1 ? "" : "s"), the most \(currency) allows"
            case .outOfRange(let text): return "amount '\(text)' is out of range"
            }
        }
    }

    /// The largest magnitude an amount may have, in minor units: 10^15
    /// (ten trillion BRL, a quadrillion JPY). Far above any real expense, and
    /// low enough that the sums tally makes of thousands of such amounts stay
    /// within Int64, so a hostile export cannot make a total overflow.
    public static let maxMinorMagnitude: Int64 = 1_000_000_000_000_000

    /// Parses a contract money string (`1234.56`, `-20.00`, `7`, `12.5`) into minor units.
    /// More digits after the point than the currency has are refused (`10.005`, JPY `3500.0`),
    /// and so are amounts beyond ``maxMinorMagnitude`` minor units.
    /// Inlinable, so each caller's collection of bytes gets a specialised copy.
    @inlinable
    public static func parseMinor<S: Collection<UInt8>>(utf8 text: S, currency: Currency) -> Result<Int64, ParseError> {
        let shown = { String(decoding: text.prefix(64), as: UTF8.self) }
        switch Decimal10.parse(utf8: text, maxScale: currency.minorUnits) {
        case .success(let value):
            guard let minor = value.rescaled(to: currency.minorUnits), minor.magnitude <= maxMinorMagnitude.magnitude
            else { return .failure(.outOfRange(shown())) }
            return .success(minor)
        case .failure(.empty): return .failure(.empty)
        case .failure(.tooManyDecimals):
            return .failure(.tooManyDecimals(shown(), currency: currency.code, allowed: currency.minorUnits))
        case .failure(.outOfRange): return .failure(.outOfRange(shown()))
        case .failure(.invalidCharacter): return .failure(.invalid(shown()))
        }
    }

    /// Parses a Swift string; see ``parseMinor(utf8:currency:)``.
    public static func parseMinor(_ text: String, currency: Currency) -> Result<Int64, ParseError> {
        parseMinor(utf8: text.utf8, currency: currency)
    }

    /// The plain machine-neutral decimal (`1234.50`, `-0.05`, JPY `3500`).
    public var plainDecimal: String { Decimal10.format(minor, scale: currency.minorUnits) }
    public var description: String { "\(plainDecimal) \(currency.code)" }

    /// Formats minor units of `currency` as a plain decimal.
    public static func plain(_ minor: Int64, _ currency: Currency) -> String {
        Decimal10.format(minor, scale: currency.minorUnits)
    }
}
