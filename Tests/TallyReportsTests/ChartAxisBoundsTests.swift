import Testing
@testable import TallyReports

/// Value axes fitted to the data and targets they draw.
@Suite("Chart axis bounds")
struct ChartAxisBoundsTests {
    @Test("bounds round outwards to whole steps, a step further near an edge, within 0–100%")
    func fitted() {
        #expect(XLSXChart.fittedBounds([0.15, 0.45, 0.2]) == 0.1...0.5)
        #expect(XLSXChart.fittedBounds([0.087, 0.448, 0.15, 0.2]) == 0.0...0.5)
        #expect(XLSXChart.fittedBounds([0.5, 1.0, 0.8]) == 0.4...1.0)
        #expect(XLSXChart.fittedBounds([0.31, 0.39]) == 0.2...0.5, "0.31 is within a quarter step of 0.3")
        #expect(XLSXChart.fittedBounds([0.35, 0.36]) == 0.3...0.4)
        #expect(XLSXChart.fittedBounds([0.25, 0.25]) == 0.2...0.3, "one value still gets a range")
        #expect(XLSXChart.fittedBounds([0, 0]) == 0.0...0.1)
        #expect(XLSXChart.fittedBounds([]) == nil)
        #expect(XLSXChart.fittedBounds([.nan, 0.5]) == 0.4...0.6, "a value that is no number is left out")
    }

    @Test("every bound is an exact multiple of the step")
    func exactMultiples() {
        for low in stride(from: 0, through: 90, by: 3) {
            for high in stride(from: low, through: 100, by: 7) {
                guard let bounds = XLSXChart.fittedBounds([Double(low) / 100, Double(high) / 100]) else { Issue.record("nil"); continue }
                for bound in [bounds.lowerBound, bounds.upperBound] {
                    #expect((bound * 10).rounded() / 10 == bound, "\(bounds)")
                }
                #expect(bounds.lowerBound <= Double(low) / 100 && bounds.upperBound >= Double(high) / 100)
                #expect(bounds.lowerBound >= 0 && bounds.upperBound <= 1)
            }
        }
    }
}
