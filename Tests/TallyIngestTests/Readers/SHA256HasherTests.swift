import Foundation
import Testing
@testable import TallyIngest

/// SHA-256 through OpenSSL's libcrypto: the FIPS 180-2 test vectors, and the
/// same digest whatever the reads' sizes.
@Suite("SHA-256")
struct SHA256HasherTests {
    func hex(_ text: String) -> String {
        let hasher = SHA256Hasher()
        hasher.update(text)
        return hasher.hexDigest()
    }

    @Test("the standard test vectors")
    func vectors() {
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let million = SHA256Hasher()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { million.update(chunk) }
        #expect(million.hexDigest() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("a file's fingerprint is its size and digest, read in chunks")
    func fingerprintOfAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tally-sha-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        var bytes = [UInt8]()
        for i in 0..<(3 * FileByteSource.defaultChunkSize + 17) { bytes.append(UInt8(truncatingIfNeeded: i &* 31)) }
        try Data(bytes).write(to: url)
        let whole = SHA256Hasher()
        whole.update(Data(bytes))
        let fingerprint = try FileFingerprint.of(url: url)
        #expect(fingerprint.bytes == Int64(bytes.count))
        #expect(fingerprint.sha256 == whole.hexDigest())
    }
}
