/// Rejects gathered from many partitions: merged by concatenation and
/// listed in one total order (dataset, file, line, id, reason, code; text in byte
/// order), so the list is the same whatever order partitions were merged in.
///
/// ```swift
/// var rejects = RejectList()
/// rejects.merge(RejectList(partitionA.rejects))
/// rejects.sorted   // the order of rejects.csv
/// ```
public struct RejectList: Mergeable, Hashable {
    public private(set) var rejects: [Reject]

    public init(_ rejects: [Reject] = []) { self.rejects = rejects }

    public mutating func merge(_ other: RejectList) { rejects += other.rejects }

    public mutating func append(_ reject: Reject) { rejects.append(reject) }

    public var count: Int { rejects.count }

    /// The rejects in the order rejects.csv lists them.
    public var sorted: [Reject] { rejects.sorted(by: Self.precedes) }

    /// rejects.csv's order: dataset, file, line, id, reason, code (text compared as bytes).
    public static func precedes(_ a: Reject, _ b: Reject) -> Bool {
        if !a.dataset.utf8.elementsEqual(b.dataset.utf8) { return ByteOrder.precedes(a.dataset, b.dataset) }
        if !a.file.utf8.elementsEqual(b.file.utf8) { return ByteOrder.precedes(a.file, b.file) }
        if a.line != b.line { return a.line < b.line }
        if !a.id.utf8.elementsEqual(b.id.utf8) { return ByteOrder.precedes(a.id, b.id) }
        if !a.reason.utf8.elementsEqual(b.reason.utf8) { return ByteOrder.precedes(a.reason, b.reason) }
        return ByteOrder.precedes(a.code.rawValue, b.code.rawValue)
    }
}
