import TallyCore

/// The reconciliation checks every run makes, and the words it uses when one
/// fails. Each check is a pure function of what the run counted, so each
/// failure path is unit-tested (TallyPipelineTests/ReconciliationTests).
///
/// A failed check does not stop run.json from being written (it records the
/// check and its detail); the run then ends with ``ReconciliationError``,
/// exit code 65.
enum Reconciliation {
    /// How many problems a check's detail names before "… and N more".
    static let shown = 10

    /// Per input file: rows read = used + rejected + superseded, with no count
    /// below zero, and the rejects stored for the file (rejects.csv) match the
    /// count the reader kept while loading it.
    ///
    /// - Parameter storedRejects: ingest rejects stored in the warehouse, by
    ///   file display path (counted independently of `rowsRejected`).
    /// - Parameter reportRejects: rows rejected by report stages, by file.
    static func inputsCheck(_ inputs: [RunManifest.Input], storedRejects: [String: Int],
                            reportRejects: [String: Int]) -> RunManifest.Check {
        var problems: [String] = []
        for f in inputs {
            if f.rowsRead < 0 || f.rowsRejected < 0 || f.rowsSuperseded < 0 || f.rowsUsed < 0
                || f.rowsUsed + f.rowsRejected + f.rowsSuperseded != f.rowsRead {
                problems.append("\(f.path): \(f.rowsRead) rows read, but used \(f.rowsUsed) + rejected \(f.rowsRejected) + superseded \(f.rowsSuperseded) = \(f.rowsUsed + f.rowsRejected + f.rowsSuperseded)")
            }
            let stored = (storedRejects[f.path] ?? 0) + (reportRejects[f.path] ?? 0)
            if stored != f.rowsRejected {
                problems.append("\(f.path): \(f.rowsRejected) rows counted as rejected, but \(stored) rejects listed in rejects.csv")
            }
        }
        return check("inputs: rows read = used + rejected + superseded", problems,
                     passed: "\(inputs.count) files")
    }

    /// The check over every couple's reconciliation (``StatementReconciliation``).
    static func couplesCheck(_ problems: [String], couples: Int) -> RunManifest.Check {
        check("statements: nets sum to zero and transfers settle them", problems, passed: "\(couples) couples")
    }

    /// A check named `name` that passes when `problems` is empty.
    static func check(_ name: String, _ problems: [String], passed: String) -> RunManifest.Check {
        guard !problems.isEmpty else { return .init(name: name, passed: true, detail: passed) }
        var detail = problems.prefix(shown).joined(separator: "; ")
        if problems.count > shown { detail += "; … and \(problems.count - shown) more" }
        return .init(name: name, passed: false, detail: detail)
    }

    /// The error a run ends with when checks failed, naming each.
    static func error(_ checks: [RunManifest.Check]) -> ReconciliationError? {
        let failed = checks.filter { !$0.passed }
        guard !failed.isEmpty else { return nil }
        return ReconciliationError(failed.map { "\($0.name): \($0.detail)" }.joined(separator: " | ")
                                   + " (see run.json)")
    }
}
