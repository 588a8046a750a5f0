/// Which row of a check-in counts, among the rows sharing its id
/// (`checkins/checkins`, exported from Firestore, can hold an id in several
/// files): the policy of a keyed table, ``ReferenceRowRule``. Within one file
/// the id's first row is kept and every later row is rejected; across files
/// the kept row of the latest-loaded file counts and the others are superseded.
///
/// ```swift
/// let old = CheckinVersionRule.Row(file: 1, loadSeq: 1, line: 2, row: 1)
/// let new = CheckinVersionRule.Row(file: 2, loadSeq: 2, line: 9, row: 2)
/// CheckinVersionRule(key: "id").verdicts([old, new])   // [.superseded, .counts]
/// ```
public typealias CheckinVersionRule = ReferenceRowRule
