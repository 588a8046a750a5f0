import FuzzSupport
import TallyIngest

/// The App Store Connect report reader, on a tab-separated report (header
/// aliases, quantities, dates, refunds, ragged rows). It may refuse the file
/// (a header it cannot place) or reject rows; it must never crash.
@main enum FuzzAppStoreConnect {
    static func main() { FuzzDriver.run(testOneInput) }
}

func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let url = ScratchFile.write(FuzzDriver.bytes(data, size), name: "report.txt")
    guard let reader = try? AppStoreConnectReader(url: url, displayPath: "subscriptions/report.txt") else { return 0 }
    try? reader.read { _ in }
    return 0
}
