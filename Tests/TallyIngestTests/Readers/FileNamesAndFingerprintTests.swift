import Foundation
import Testing
@testable import TallyIngest

@Suite("file names, field names and fingerprints")
struct FileNamesAndFingerprintTests {
    @Test("table file names give table, format and compression, case-insensitively")
    func tableFileNames() {
        #expect(TableFileName("expenses.csv")?.table == "expenses")
        #expect(TableFileName("my.data.csv.gz")?.table == "my.data")
        let parsed = ["a.csv", "b.csv.gz", "c.ndjson", "d.jsonl", "e.NDJSON.GZ", "f.Jsonl.gz"].compactMap(TableFileName.init)
        #expect(parsed.map(\.table) == ["a", "b", "c", "d", "e", "f"])
        #expect(parsed.map(\.format) == [.csv, .csv, .ndjson, .ndjson, .ndjson, .ndjson])
        #expect(parsed.map(\.isCompressed) == [false, true, false, false, true, true])
        for name in ["a.txt", "a.gz", ".csv", "a.csv.zip", "a.json", "csv"] {
            #expect(TableFileName(name) == nil, "\(name)")
        }
    }

    @Test("snake_case names become camelCase; names match ignoring case and underscores")
    func fieldNames() {
        #expect(FieldName.camelCase("couple_id") == "coupleId")
        #expect(FieldName.camelCase("coupleId") == "coupleId")
        #expect(FieldName.camelCase("user_photo_url") == "userPhotoUrl")
        #expect(FieldName.camelCase("_private_") == "private")
        #expect(FieldName.matchKey("user_photo_url") == FieldName.matchKey("userPhotoURL"))
        #expect(FieldName.matchKey(" walking_distance_km ") == FieldName.matchKey("walkingDistanceKm"))
        #expect(FieldName.matchKey("couple_id") != FieldName.matchKey("coupleIds"))
    }

    @Test("fingerprints are the size and lowercase hex SHA-256 of the file")
    func fingerprints() throws {
        let dir = try TemporaryDirectory()
        let abc = try FileFingerprint.of(url: try dir.file("abc.csv", "abc"))
        #expect(abc.bytes == 3)
        #expect(abc.sha256 == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let empty = try FileFingerprint.of(url: try dir.file("empty.csv", ""))
        #expect(empty.bytes == 0)
        #expect(empty.sha256 == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let big = try FileFingerprint.of(url: try dir.file("big.csv", bytes: Array(repeating: UInt8(ascii: "a"), count: 1_500_000)))
        #expect(big.bytes == 1_500_000)
        #expect(big.sha256 == "f30207a92765493dcdd80a5a2b541b3f67073c413676ab523b30c4feb12fac90")
        #expect(throws: ReaderError.self) { try FileFingerprint.of(url: dir.url.appendingPathComponent("missing.csv")) }
    }

    @Test("a reader made with fingerprinting gives the file's fingerprint once it has read it all, plain or gzip")
    func fingerprintWhileReading() throws {
        let dir = try TemporaryDirectory()
        var rows = "id,description,amount\n"
        for i in 0..<20_000 { rows += "\(i),row \(i * 7919 % 1000),\(i)\n" }
        let plain = try dir.file("t.csv", rows)
        let gz = try dir.gzipFile("t.csv.gz", bytes: Array(rows.utf8))
        for url in [plain, gz] {
            let expected = try FileFingerprint.of(url: url)
            for chunkSize in [7, 4096, 1 << 20] {
                let reader = try TableReader(url: url, fields: ["id", "description", "amount"], maxRecordBytes: 1 << 20,
                                             chunkSize: chunkSize, fingerprinting: true)
                #expect(reader.fingerprint == nil)  // not read yet
                try reader.read { _ in }
                let taken = try #require(reader.fingerprint, "\(url.lastPathComponent) at chunk \(chunkSize)")
                #expect(taken.bytes == expected.bytes && taken.sha256 == expected.sha256, "\(url.lastPathComponent) at chunk \(chunkSize)")
            }
            let unhashed = try TableReader(url: url, fields: ["id"])
            try unhashed.read { _ in }
            #expect(unhashed.fingerprint == nil)
        }
    }
}
