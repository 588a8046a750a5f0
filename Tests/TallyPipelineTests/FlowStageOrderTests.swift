import Testing
@testable import TallyPipeline

/// The stages' order: a record goes only to a later stage, and every stage
/// that sends a stage records runs in an earlier wave.
@Suite("Dataflow: the stages' order")
struct FlowStageOrderTests {
    @Test("a stage's ordinal is its place among the cases, and the waves follow it")
    func ordinalsFollowTheCases() {
        let stages = FlowStageName.allCases
        #expect(stages.map(\.ordinal) == Array(stages.indices))
        for (a, b) in zip(stages, stages.dropFirst()) {
            #expect(a < b && !(b < a))
            #expect(a.wave <= b.wave, "\(a) is in wave \(a.wave), after \(b)'s \(b.wave)")
        }
    }
}
