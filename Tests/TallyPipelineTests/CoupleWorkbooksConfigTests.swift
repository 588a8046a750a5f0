import Foundation
import Testing
import TallyCore
@testable import TallyPipeline

@Suite("tally.yml: statements.coupleWorkbooks")
struct CoupleWorkbooksConfigTests {
    @Test func offUnlessTurnedOn() throws {
        #expect(TallyConfig().statements.coupleWorkbooks == false)
        #expect(try ConfigLoader.parse("statements:\n  trendMonths: 3\n", file: "tally.yml").statements.coupleWorkbooks == false)
        #expect(try ConfigLoader.parse("statements:\n  coupleWorkbooks: true\n", file: "tally.yml").statements.coupleWorkbooks)
        #expect(try ConfigLoader.parse("statements:\n  coupleWorkbooks: False\n", file: "tally.yml").statements.coupleWorkbooks == false)
    }

    @Test(arguments: ["yes", "1", "on", "[true]", "\"\""])
    func anythingButTrueOrFalseNamesTheSetting(value: String) {
        #expect {
            try ConfigLoader.parse("statements:\n  coupleWorkbooks: \(value)\n", file: "tally.yml")
        } throws: { error in
            "\(error)" == "tally.yml line 2: statements.coupleWorkbooks must be true or false"
        }
    }

    @Test func theSampleConfigurationTurnsThemOn() throws {
        let sample = repositoryRoot.appendingPathComponent("sample-data/tally.yml")
        #expect(try ConfigLoader.load(sample).statements.coupleWorkbooks)
    }
}
