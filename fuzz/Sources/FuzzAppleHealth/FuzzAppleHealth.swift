import FuzzSupport
import TallyIngest

/// The Apple Health export reader, on an `export.xml` or, when the input
/// starts like a zip, an `export.zip` (entities, DTDs, huge attributes, bad
/// dates and units, damaged or hostile archives). The reader may refuse a
/// file with an error; it must never crash, hang or grow without bound.
@main enum FuzzAppleHealth {
    static func main() { FuzzDriver.run(testOneInput) }
}

func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzDriver.bytes(data, size)
    let isZip = bytes.starts(with: [0x50, 0x4B])
    let url = ScratchFile.write(bytes, name: isZip ? "export.zip" : "export.xml")
    // Small limits keep each execution cheap while exercising the refusals.
    let limits = AppleHealthExportReader.Limits(maxUncompressedBytes: 8 << 20, maxCompressionRatio: 200, maxTagBytes: 64 << 10)
    let reader = AppleHealthExportReader(url: url, displayPath: "health/u1/export.xml", limits: limits)
    _ = try? reader.read { _ in }
    return 0
}
