import Testing
@testable import TallyReports

@Suite("Sparklines: gaps and flat series")
struct SparklineGapsTests {
    @Test func aMissingDayIsAGapNotALowScore() {
        let line = TextChart.sparkline([100, nil, 0, nil], range: 0...100)
        #expect(line == "█·▁·")
        #expect(TextChart.sparkline([nil, nil], range: 0...100) == "··")
        #expect(TextChart.sparkline([Double?](), range: 0...100) == "")
    }

    @Test func aDayWithDataDrawsLikeTheFixedScale() {
        let values: [Double] = [0, 25, 50, 75, 100]
        #expect(TextChart.sparkline(values.map { Optional($0) }, range: 0...100) == TextChart.sparkline(values, range: 0...100))
    }

    @Test func anAllZeroSeriesIsTheLowestLineNotSteadyActivity() {
        #expect(TextChart.sparkline([0, 0, 0, 0]) == "▁▁▁▁")
        #expect(TextChart.sparkline([-2, -2]) == "▁▁")
        // A steady non-zero series stays a flat middle line.
        #expect(TextChart.sparkline([5, 5, 5]) == "▄▄▄")
    }
}
