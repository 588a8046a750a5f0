import Foundation
import TallyIngest

/// The size and sha256 of each input file (``FileFingerprint``), computed in
/// order on a thread of its own while earlier files load.
///
/// Hashing is a pass over every input byte (~1.2 s of one core for the
/// 1.6 GB of the medium bench) that the loads would otherwise wait for,
/// file after file, while most loads keep only one core busy.
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
