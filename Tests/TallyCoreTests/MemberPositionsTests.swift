import Testing
@testable import TallyCore

@Suite struct MemberPositionsTests {
    @Test func aCouplesMembersAreFoundByTheirFirstPosition() {
        let positions = MemberPositions(["m1", "m2", "m1"])
        #expect(positions["m1"] == 0)
        #expect(positions["m2"] == 1)
        #expect(positions["m9"] == nil)
        #expect(!positions.contains(""))
    }

    /// Groups on either side of the direct scan's limit give what a first-index search gives.
    @Test func largeGroupsAgreeWithAScan() {
        for size in [0, 1, MemberPositions.directLimit, MemberPositions.directLimit + 1, 200] {
            let ids = (0..<size).map { "m\($0 % max(1, size - 3))" }   // some ids repeat
            let positions = MemberPositions(ids)
            for probe in ids + ["absent", "m"] {
                #expect(positions[probe] == ids.firstIndex(of: probe), "size \(size), id \(probe)")
            }
        }
    }
}
