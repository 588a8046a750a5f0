/// An ISO 4217 currency and the number of minor units (digits after the point) it has.
///
/// Money in tally is always an integer count of minor units; `minorUnits` says
/// how to read and print it (`BRL` 2: 1234 → `12.34`; `JPY` 0: 1234 → `1234`).
public struct Currency: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The three-letter code, upper case (`BRL`).
    public let code: String
    /// Digits after the decimal point.
    public let minorUnits: Int

    /// A currency with an explicit number of minor units.
    public init(code: String, minorUnits: Int) {
        self.code = code
        self.minorUnits = minorUnits
    }

    /// The currency for an ISO 4217 code, or nil when the code is not one tally knows.
    public init?(code: String) {
        guard let units = Currency.minorUnitsByCode[code] else { return nil }
        self.init(code: code, minorUnits: units)
    }

    public var description: String { code }
    public static func < (a: Currency, b: Currency) -> Bool { a.code < b.code }

    /// 10^minorUnits.
    public var scale: Int64 { Decimal10.pow10(minorUnits) }

    /// Active ISO 4217 codes with their minor units (the table ISO publishes;
    /// codes with 2 units are the rule, the others are listed by exception).
    package static let minorUnitsByCode: [String: Int] = {
        var table: [String: Int] = [:]
        let two = """
            AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN BWP BYN \
            BZD CAD CDF CHF CNY COP CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS \
            GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR \
            LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD \
            PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN \
            SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD UYU UZS VES WST XCD YER ZAR ZMW ZWL
            """
        for code in two.split(separator: " ") { table[String(code)] = 2 }
        for code in ["BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF"] {
            table[code] = 0
        }
        for code in ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"] { table[code] = 3 }
        return table
    }()
}
