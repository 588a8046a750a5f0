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
        if case let c = ByteOrder.compare(a.dataset, b.dataset), c != 0 { return c < 0 }
        if case let c = ByteOrder.compare(a.file, b.file), c != 0 { return c < 0 }
        if a.line != b.line { return a.line < b.line }
        if case let c = ByteOrder.compare(a.id, b.id), c != 0 { return c < 0 }
        if case let c = ByteOrder.compare(a.reason, b.reason), c != 0 { return c < 0 }
        return ByteOrder.precedes(a.code.rawValue, b.code.rawValue)
    }
}
