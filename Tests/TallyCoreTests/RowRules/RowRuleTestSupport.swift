import Testing
@testable import TallyCore

/// Checks that a rule's verdicts follow the rows, not their order: `group`
/// shuffled with `rng` gets, row for row, the verdicts it got as given.
/// `verdicts` gives each row's verdict in a form that names no position.
func expectOrderIndependent<Row: Hashable, V: Equatable>(
    _ group: [Row], rng: inout SplitMix64, verdicts: ([Row]) -> [V], sourceLocation: SourceLocation = #_sourceLocation
) {
    let given = Dictionary(uniqueKeysWithValues: zip(group, verdicts(group)))
    for _ in 0..<3 {
        let shuffled = group.shuffled(using: &rng)
        for (row, verdict) in zip(shuffled, verdicts(shuffled)) {
            #expect(given[row] == verdict, "\(row)", sourceLocation: sourceLocation)
        }
    }
}

/// A version rule's verdicts keep exactly one row counting in a non-empty group.
func expectOneCounts(_ verdicts: [RowVerdict], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(verdicts.isEmpty || verdicts.filter { $0 == .counts }.count == 1, sourceLocation: sourceLocation)
}
