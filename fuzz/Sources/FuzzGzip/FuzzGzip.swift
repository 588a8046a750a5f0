import FuzzSupport
import TallyCore
import TallyIngest

/// gzip decompression under the readers: the input is a `.csv.gz` file
/// (corrupt, truncated and multi-member data included), read to the end.
@main enum FuzzGzip {
    static func main() { FuzzDriver.run(testOneInput) }
}

func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let url = ScratchFile.write(FuzzDriver.bytes(data, size), name: "input.csv.gz")
    TableDrain.read(url, fields: TableID.expenses.fields, maxRecordBytes: 64 << 20)
    return 0
}
