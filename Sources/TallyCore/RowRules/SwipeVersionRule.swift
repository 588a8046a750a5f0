/// Which row of a swipe counts, among the rows sharing its id (`swipes/`
/// files can hold an id more than once): ``LatestLoadFirstLine``, the first
/// line of the latest-loaded file holding the id, whatever its action.
///
/// ```swift
/// let a = SwipeVersionRule.Row(loadSeq: 3, line: 7, row: 10)
/// let b = SwipeVersionRule.Row(loadSeq: 3, line: 4, row: 11)
/// SwipeVersionRule().verdicts([a, b])   // [.superseded, .counts]: same file, earlier line
/// ```
public typealias SwipeVersionRule = LatestLoadFirstLine
