import FuzzSupport
import TallyCore
import TallyIngest

/// NDJSON reader: the input is a `.ndjson` file, read with the fields of
/// every contract table at once (so keys of any sample file match).
@main enum FuzzNDJSON {
    static func main() { FuzzDriver.run(testOneInput) }
}

func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzDriver.bytes(data, size)
    let url = ScratchFile.write(bytes, name: "input.ndjson")
    TableDrain.read(url, fields: allFields, maxRecordBytes: TableDrain.recordLimit(bytes))
    return 0
}

/// Every field name of the contract, once each.
let allFields: [String] = {
    var seen = Set<String>()
    return TableID.allCases.flatMap(\.fields).filter { seen.insert($0).inserted }
}()
