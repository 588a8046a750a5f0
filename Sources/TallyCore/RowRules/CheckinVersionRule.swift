/// Which row of a check-in counts, among the rows sharing its id
/// (`checkins/checkins`, exported from Firestore, can hold an id in several
/// files): ``LatestLoadFirstLine``, the row of the latest-loaded file, then
/// its first line. A repeat within one file is refused while that file loads.
///
/// ```swift
/// let old = CheckinVersionRule.Row(loadSeq: 1, line: 2, row: 1)
/// let new = CheckinVersionRule.Row(loadSeq: 2, line: 9, row: 2)
/// CheckinVersionRule.verdicts([old, new])   // [.superseded, .counts]
/// ```
public typealias CheckinVersionRule = LatestLoadFirstLine
