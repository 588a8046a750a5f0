import Foundation
import TallyPipeline
import TallyWarehouse
#if canImport(Glibc)
import Glibc
#endif

/// Kills `tally run` with SIGKILL at random moments and checks what it left:
/// the warehouse passes `PRAGMA integrity_check`, and every report file is a
/// complete version (byte-identical to a reference run of one of the data
/// versions used); a final uninterrupted run then gives exactly a reference
/// run's outputs. A run compares with the last run published from its
/// warehouse (run.json's `changes`, the KPIs' restated months), so each
/// version has three references: its run on a new warehouse, after a run of
/// the same version, and after a run of the other version.
///
/// Each iteration swaps the data folder's files between two generated data
/// versions (same paths, other contents), so every run re-ingests, replacing
/// the previous version's rows: kills land in ingest as well as in the report
/// stages and the final writes.
final class CrashHarness {
    let tally: URL
    let work: URL
    /// The folder every run reads (its files swapped per iteration).
    let data: URL
    let out: URL
    let period = "2026-10"
    /// The data versions (generated folders), their reference outputs (the
    /// run's on a new warehouse first, then its variants after other runs).
    private(set) var versions: [(folder: URL, variants: [[String: Data]], seconds: Double)] = []
    /// The progress steps a whole run reports (`ingest expenses/couples.csv`, …, `statements`).
    private(set) var steps: [String] = []
    private var random: SystemRandomNumberGenerator = .init()

    /// What one iteration saw.
    struct Iteration {
        var delay: Double
        /// Where the run was killed: `ingest` (before its last file was
        /// loaded), `reports` (building and writing reports), `publishing`
        /// (rejects.csv, run.json, renames), or `finished` before the kill.
        var stage: String
        var problems: [String]
    }

    init(tally: URL, work: URL) {
        self.tally = tally
        self.work = work
        data = work.appendingPathComponent("data")
        out = work.appendingPathComponent("out")
    }

    /// Generates the data versions and runs each once, uninterrupted, into a
    /// fresh out folder, keeping its outputs as the reference.
    func prepare(seeds: [Int]) throws {
        for seed in seeds {
            let folder = work.appendingPathComponent("data-\(seed)")
            let gen = try run(["generate", "--out", folder.path, "--seed", "\(seed)", "--scale", "small", "--month", period])
            guard gen.status == 0 else { throw HarnessError("generate failed: \(gen.err)") }
            let refOut = work.appendingPathComponent("reference-\(seed)")
            let started = Date()
            let r = try run(["run", "--data", folder.path, "--out", refOut.path, "--period", period, "--reproducible"])
            guard r.status == 0 else { throw HarnessError("reference run failed (\(r.status)): \(r.err)") }
            steps = Self.steps(r.err)
            // Time a second, warm run (fresh out folder, so a full ingest too):
            // kills are spread over the time a run really takes.
            let warmOut = work.appendingPathComponent("warm-\(seed)")
            let warmStarted = Date()
            _ = try run(["run", "--data", folder.path, "--out", warmOut.path, "--period", period, "--reproducible", "--quiet"])
            let seconds = min(warmStarted.timeIntervalSince(started), Date().timeIntervalSince(warmStarted))
            try? FileManager.default.removeItem(at: warmOut)
            versions.append((folder, [try Self.reports(in: refOut)], seconds))
        }
        // Each version after a run of each version, into one out folder and
        // warehouse, from one data folder whose files are swapped, as the iterations do.
        let variantData = work.appendingPathComponent("variant-data")
        for v in versions.indices {
            for before in versions.indices {
                let variant = work.appendingPathComponent("variant-\(v)-after-\(before)")
                let db = work.appendingPathComponent("variant-\(v)-after-\(before).sqlite").path
                for (version, extra) in [(before, [String]()), (v, ["--rebuild-reports"])] {
                    try? FileManager.default.removeItem(at: variantData)
                    try FileManager.default.copyItem(at: versions[version].folder, to: variantData)
                    let r = try run(["run", "--data", variantData.path, "--out", variant.path, "--db", db,
                                     "--period", period, "--reproducible", "--quiet"] + extra)
                    guard r.status == 0 else { throw HarnessError("reference run failed (\(r.status)): \(r.err)") }
                }
                versions[v].variants.append(try Self.reports(in: variant))
            }
        }
    }

    /// Puts version `v`'s files in the data folder.
    func useVersion(_ v: Int) throws {
        let fm = FileManager.default
        try? fm.removeItem(at: data)
        try fm.copyItem(at: versions[v].folder, to: data)
    }

    /// Starts a run on version `v`, kills it after a random delay (up to 1.2×
    /// the reference run's time), and checks what is left.
    func iterate(version v: Int) throws -> Iteration {
        try useVersion(v)
        let delay = Double.random(in: 0...(1.2 * versions[v].seconds), using: &random)
        let process = try start(["run", "--data", data.path, "--out", out.path, "--period", period, "--reproducible"])
        let deadline = Date().addingTimeInterval(delay)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        var stage = "finished"
        var problems: [String] = []
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            stage = phase(after: lastStep())
        } else {
            process.waitUntilExit()
            if process.terminationStatus != 0 { problems.append("the run exited with \(process.terminationStatus)") }
        }
        problems += try check(allowedVersions: Array(versions.indices), temporariesAllowed: true)
        return Iteration(delay: delay, stage: stage, problems: problems)
    }

    /// Runs version `v` to the end and checks its outputs are exactly the reference.
    func finish(version v: Int) throws -> [String] {
        try useVersion(v)
        let r = try run(["run", "--data", data.path, "--out", out.path, "--period", period, "--reproducible", "--quiet"])
        var problems = r.status == 0 ? [] : ["the final run exited with \(r.status): \(r.err)"]
        problems += try check(allowedVersions: [v], temporariesAllowed: false)
        let reports = try Self.reports(in: out)
        for path in versions[v].variants[0].keys where reports[path] == nil { problems.append("\(path) is missing") }
        return problems
    }

    /// The warehouse is sound, and every report is one of the allowed versions.
    func check(allowedVersions: [Int], temporariesAllowed: Bool) throws -> [String] {
        var problems: [String] = []
        let db = WarehouseLocation.defaultPath(out: out)
        if FileManager.default.fileExists(atPath: db) {
            let integrity = try Warehouse(path: db).integrityCheck()
            if integrity != "ok" { problems.append("integrity_check: \(integrity)") }
        }
        for (path, bytes) in try Self.reports(in: out, includingTemporaries: true) {
            if (path as NSString).lastPathComponent.hasPrefix(".") && path.contains(".tmp-") {
                if !temporariesAllowed { problems.append("temporary file left: \(path)") }
                continue
            }
            if !allowedVersions.contains(where: { v in versions[v].variants.contains { $0[path] == bytes } }) {
                let known = allowedVersions.contains { versions[$0].variants[0][path] != nil }
                problems.append(known ? "\(path) (\(bytes.count) bytes) is no complete version" : "\(path) is not a report of any run")
            }
        }
        return problems
    }

    // MARK: - Processes and files

    func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = tally
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let err = work.appendingPathComponent("stderr.txt")
        FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        return process
    }

    func run(_ arguments: [String]) throws -> (status: Int32, err: String) {
        let process = try start(arguments)
        process.waitUntilExit()
        let err = (try? String(contentsOf: work.appendingPathComponent("stderr.txt"), encoding: .utf8)) ?? ""
        return (process.terminationStatus, err)
    }

    /// The progress steps in `stderr` (`stage=ingest file=expenses/fx.csv …`
    /// becomes `ingest expenses/fx.csv`).
    static func steps(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").filter { $0.hasPrefix("stage=") }.map { line in
            line.split(separator: " ").filter { $0.hasPrefix("stage=") || $0.hasPrefix("file=") }
                .map { String($0.split(separator: "=", maxSplits: 1).last ?? "") }.joined(separator: " ")
        }
    }

    /// The last progress step the killed run reported, or nil before the first.
    func lastStep() -> String? {
        Self.steps((try? String(contentsOf: work.appendingPathComponent("stderr.txt"), encoding: .utf8)) ?? "").last
    }

    /// The phase a run was in after reporting `step` (steps come when a file
    /// is loaded and when a report stage ends).
    func phase(after step: String?) -> String {
        guard let step, let index = steps.firstIndex(of: step) else { return "ingest" }
        let lastIngest = steps.lastIndex { $0.hasPrefix("ingest") } ?? -1
        if index < lastIngest { return "ingest" }
        return index == steps.count - 1 ? "publishing" : "reports"
    }

    /// Every file under `folder` except the warehouse, by relative path.
    static func reports(in folder: URL, includingTemporaries: Bool = false) throws -> [String: Data] {
        var out: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return out
        }
        let base = folder.standardizedFileURL.path
        for case let url as URL in walker where (try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile ?? false) {
            let relative = String(url.standardizedFileURL.path.dropFirst(base.count + 1))
            if relative.hasPrefix("tally.sqlite") { continue }
            if !includingTemporaries && relative.contains(".tmp-") { continue }
            out[relative] = try Data(contentsOf: url)
        }
        return out
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
