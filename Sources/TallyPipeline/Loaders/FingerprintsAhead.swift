import Foundation
import TallyIngest
#if canImport(Glibc)
import Glibc
#endif

/// The size and sha256 of each input file (``FileFingerprint``), computed in
/// order on a thread of its own while earlier files load.
///
/// Hashing is a pass over every input byte (~1.2 s of one core for the
/// 1.6 GB of the medium bench) that the loads would otherwise wait for,
/// file after file, while most loads keep only one core busy. The thread
/// runs at the lowest priority: while a load keeps both cores busy (a
/// reading thread and the writer), hashing ahead would only slow it down.
final class FingerprintsAhead: @unchecked Sendable {
    typealias Fingerprint = (bytes: Int64, sha256: String)
    private let urls: [URL]
    private var results: [Result<Fingerprint, ReaderError>?]
    private var cancelled = false
    private let condition = NSCondition()

    /// Starts hashing `urls`, in order.
    init(_ urls: [URL]) {
        self.urls = urls
        results = Array(repeating: nil, count: urls.count)
        let thread = Thread { [self] in hashAll() }
        thread.start()
    }

    /// The fingerprint of `urls[index]`, waiting for it when needed.
    func fingerprint(_ index: Int) throws(ReaderError) -> Fingerprint {
        condition.lock()
        while results[index] == nil { condition.wait() }
        let result = results[index]!
        condition.unlock()
        return try result.get()
    }

    /// Stops hashing after the current file (the ingest ended early).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.unlock()
    }

    private func hashAll() {
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(tally_gettid()), 19)
        #endif
        for index in urls.indices {
            condition.lock()
            let stop = cancelled
            condition.unlock()
            if stop { return }
            let result = Result { () throws(ReaderError) in try FileFingerprint.of(url: urls[index]) }
            condition.lock()
            results[index] = result
            condition.broadcast()
            condition.unlock()
        }
    }
}

#if os(Linux)
/// glibc's `gettid(2)`, which the Glibc module does not export (it needs _GNU_SOURCE).
@_silgen_name("gettid")
private func tally_gettid() -> Int32
#endif
