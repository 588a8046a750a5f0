import Testing
@testable import TallyCore

@Suite("Key groups")
struct KeyGroupsTests {
    @Test func keysAreComparedAsBytesNotAsCanonicallyEquivalentStrings() {
        let rows = ["\u{E4}", "a\u{308}", "\u{E4}", "A", "a"]
        #expect("\u{E4}" == "a\u{308}")   // what String equality would merge
        let groups = KeyGroups.split(rows) { Array($0.utf8) }
        #expect(groups.map { $0.map { Array($0.unicodeScalars) } } == [
            [["\u{E4}"], ["\u{E4}"]], [["a", "\u{308}"]], [["A"]], [["a"]],
        ])
    }

    @Test func groupsComeInTheOrderOfTheirFirstRow() {
        let rows = [("b", 1), ("a", 2), ("b", 3)]
        #expect(KeyGroups.split(rows) { Array($0.0.utf8) }.map { $0.map(\.1) } == [[1, 3], [2]])
    }
}
