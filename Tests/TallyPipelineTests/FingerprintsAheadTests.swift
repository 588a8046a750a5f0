import Foundation
import Testing
@testable import TallyIngest
@testable import TallyPipeline

/// Input fingerprints computed ahead, in order, on a thread of their own.
@Suite("Fingerprints computed ahead")
struct FingerprintsAheadTests {
    @Test func eachFileGetsItsOwnFingerprintAndAnUnreadableOneItsError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fingerprints-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var urls: [URL] = []
        for (i, size) in [0, 1, 3 << 20].enumerated() {   // empty, one byte, several read chunks
            let url = folder.appendingPathComponent("f\(i)")
            try Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: url)
            urls.append(url)
        }
        urls.insert(folder.appendingPathComponent("missing"), at: 1)
        let ahead = FingerprintsAhead(urls)
        for (i, url) in urls.enumerated() where i != 1 {
            let got = try ahead.fingerprint(i)
            let expected = try FileFingerprint.of(url: url)
            #expect(got.bytes == expected.bytes && got.sha256 == expected.sha256)
        }
        #expect(throws: ReaderError.self) { try ahead.fingerprint(1) }
        #expect(try ahead.fingerprint(0).sha256 == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func filesAskedForOutOfOrderAreHashedByTheCallerOnceEach() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fingerprints-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let urls = try (0..<6).map { i in
            let url = folder.appendingPathComponent("f\(i)")
            try Data(repeating: UInt8(i), count: (i + 1) << 19).write(to: url)
            return url
        }
        let ahead = FingerprintsAhead(urls)
        // Last first (the thread starts at the first), then the rest, then all again.
        for i in [5, 4, 0, 1, 2, 3, 5, 0] {
            let expected = try FileFingerprint.of(url: urls[i])
            let got = try ahead.fingerprint(i)
            #expect(got.bytes == expected.bytes && got.sha256 == expected.sha256)
        }
        ahead.cancel()
    }
}
