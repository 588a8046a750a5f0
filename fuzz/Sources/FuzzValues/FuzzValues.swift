import FuzzSupport
import TallyCore

/// The value parsers of TallyCore on the same bytes: money (BRL, JPY),
/// Decimal10, LocalDate, Timestamp and the split rules. Whatever parses must
/// print back to something that parses to the same value.
@main enum FuzzValues {
    static func main() { FuzzDriver.run(testOneInput) }
}

func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzDriver.bytes(data, size)
    let text = String(decoding: bytes, as: UTF8.self)

    for code in ["BRL", "JPY"] {
        let currency = Currency(code: code)!
        if case .success(let minor) = Money.parseMinor(utf8: bytes, currency: currency) {
            let printed = Money.plain(minor, currency)
            precondition(Money.parseMinor(printed, currency: currency) == .success(minor), "money \(printed) does not read back")
        }
    }
    if case .success(let value) = Decimal10.parse(utf8: bytes) {
        precondition(Decimal10.parse(value.description) == .success(value), "decimal \(value) does not read back")
    }
    if let date = LocalDate.parse(utf8: bytes) {
        precondition(date.description == text, "date \(text) prints as \(date)")
    }
    if case .success(let instant) = Timestamp.parse(utf8: Array(bytes)) {
        precondition(Timestamp.parse(instant.description) == .success(instant),
                     "timestamp \(text) prints as \(instant), which does not read back")
    }
    for type in ["equal", "shares", "percentage", "exact", "full", text] {
        if case .success(let rule) = SplitRuleParser.parse(type: type, split: text) {
            let printed = SplitRuleParser.format(rule)
            precondition(SplitRuleParser.parse(type: rule.type, split: printed) == .success(rule) || rule.type == .equal,
                         "split \(text) prints as \(printed), which does not read back")
        }
    }
    return 0
}
