import FuzzSupport
import TallyCore
import TallyIngest

/// NDJSON reader: the input is a `.ndjson` file, read with the fields of
/// every contract table at once (so keys of any sample file match).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let url = ScratchFile.write(data, size, name: "input.ndjson")
    TableDrain.read(url, fields: allFields, maxRecordBytes: TableDrain.recordLimit(data, size))
    return 0
}

/// Every field name of the contract, once each.
let allFields: [String] = {
    var seen = Set<String>()
    return TableID.allCases.flatMap(\.fields).filter { seen.insert($0).inserted }
}()
