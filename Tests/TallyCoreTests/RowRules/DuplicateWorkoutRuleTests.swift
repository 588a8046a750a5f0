import PropertyBased
import Testing
@testable import TallyCore

@Suite("Duplicate workout rule")
struct DuplicateWorkoutRuleTests {
    func checkin(_ id: String, at seconds: Int64, path: String = "checkins.csv", line: Int64 = 2) -> DuplicateWorkoutRule.Checkin {
        DuplicateWorkoutRule.Checkin(createdAt: Timestamp(seconds: seconds), path: Array(path.utf8), line: line, id: Array(id.utf8))
    }

    @Test func theFirstByCreatedAtIsTheOriginal() {
        let group = [checkin("b", at: 20), checkin("a", at: 10), checkin("c", at: 30)]
        #expect(DuplicateWorkoutRule.verdicts(group) == [.duplicate(of: 1), .original, .duplicate(of: 1)])
    }

    @Test func thenTheFilesDisplayPathInByteOrder() {
        // "Z" (0x5A) sorts before "a" (0x61), and "a" before "é" (0xC3 0xA9), in bytes.
        let group = [checkin("x", at: 10, path: "a/checkins.csv"), checkin("y", at: 10, path: "\u{E9}/checkins.csv"),
                     checkin("z", at: 10, path: "Z/checkins.csv")]
        #expect(DuplicateWorkoutRule.verdicts(group) == [.duplicate(of: 2), .duplicate(of: 2), .original])
    }

    @Test func thenTheLine() {
        let group = [checkin("x", at: 10, line: 9), checkin("y", at: 10, line: 3)]
        #expect(DuplicateWorkoutRule.verdicts(group) == [.duplicate(of: 1), .original])
    }

    @Test func thenTheIdInByteOrderNotByCanonicalEquivalence() {
        // "a\u{308}" and "ä" are equal Strings but different ids; 0x61 precedes 0xC3.
        let group = [checkin("\u{E4}", at: 10), checkin("a\u{308}", at: 10)]
        #expect(DuplicateWorkoutRule.verdicts(group) == [.duplicate(of: 1), .original])
        let upper = [checkin("b", at: 10), checkin("B", at: 10)]
        #expect(DuplicateWorkoutRule.verdicts(upper) == [.duplicate(of: 1), .original])
    }

    @Test func aLoneCheckinIsTheOriginal() {
        #expect(DuplicateWorkoutRule.verdicts([checkin("a", at: 1)]) == [.original])
    }

    @Test func theVerdictsDoNotDependOnTheOrderOfTheGroup() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let ids = ["a", "B", "\u{E4}", "a\u{308}", "z", "m1", "m10", "m2"].shuffled(using: &rng)
            let group = ids.prefix(Int.random(in: 1...8, using: &rng)).map { id in
                checkin(id, at: Int64.random(in: 0...2, using: &rng), path: ["a", "Z", "\u{E9}"].randomElement(using: &rng)!,
                        line: Int64.random(in: 2...3, using: &rng))
            }
            let verdicts = DuplicateWorkoutRule.verdicts(group)
            #expect(verdicts.filter { $0 == .original }.count == 1)
            // Positions differ once shuffled: compare the original's id.
            expectOrderIndependent(group, rng: &rng, verdicts: { g in
                DuplicateWorkoutRule.verdicts(g).map { verdict -> [UInt8]? in
                    if case .duplicate(let i) = verdict { g[i].id } else { nil }
                }
            })
        }
    }
}
