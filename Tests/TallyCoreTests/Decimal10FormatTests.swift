import Testing
@testable import TallyCore

@Suite("Decimal10: formatting")
struct Decimal10FormatTests {
    /// The digits written out by hand: whole part, point, the decimals padded with zeros.
    static func reference(_ value: Int64, scale: Int) -> String {
        let digits = String(value.magnitude)
        let padded = String(repeating: "0", count: max(0, scale + 1 - digits.count)) + digits
        let sign = value < 0 ? "-" : ""
        return scale == 0 ? sign + padded : sign + padded.dropLast(scale) + "." + padded.suffix(scale)
    }

    @Test("every value at every scale is its digits with exactly `scale` decimals, signed, and parses back")
    func formatsEveryValue() {
        var generator = SystemRandomNumberGenerator()
        let edges: [Int64] = [0, 1, -1, 5, -5, 9, 10, 99, 100, -100, 12_345, Int64.max, Int64.min, Int64.min + 1]
        for scale in 0...18 {
            for value in edges + (0..<200).map({ _ in Int64.random(in: .min ... .max, using: &generator) >> Int64.random(in: 0...62, using: &generator) }) {
                let text = Decimal10.format(value, scale: scale)
                #expect(text == Self.reference(value, scale: scale), "\(value) at scale \(scale)")
                if value != Int64.min {
                    #expect(Decimal10.parse(text, maxScale: 18) == .success(Decimal10(mantissa: value, scale: scale)))
                }
            }
        }
        #expect(Decimal10.format(-5, scale: 2) == "-0.05")
        #expect(Decimal10.format(123_456, scale: 2) == "1234.56")
    }
}
