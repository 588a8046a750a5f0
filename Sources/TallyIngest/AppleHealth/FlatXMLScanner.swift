/// A push tokenizer for flat, machine-written XML such as Apple Health's
/// `export.xml`: it hands out start tags (name, attributes, line, depth) and
/// skips everything else, with memory bounded by the longest tag.
///
/// Why not Foundation's `XMLParser`: on Linux it has been seen to crash on the
/// `<!ATTLIST …>` lines of the internal DTD every Health export starts with,
/// it cannot be fed the chunks of a zip entry as they inflate, and its
/// libxml2 underneath would expand entities. This scanner reads the subset of
/// XML those exports use and is safe on hostile input:
/// - the DTD (`<!DOCTYPE … [ … ]>`) is skipped, never interpreted: no entity
///   is ever expanded (no "billion laughs") and no external entity or DTD is
///   ever fetched;
/// - a reference to any entity but the five predefined ones (`&lt;` `&gt;`
///   `&amp;` `&quot;` `&apos;`) and character references (`&#38;` `&#x26;`)
///   is an error naming the line;
/// - a tag, comment or DTD longer than ``maxConstructBytes`` is an error, so
///   a file without `>` cannot make the buffer grow without bound.
///
/// Feed bytes with ``feed(_:_:)`` in chunks of any size (a construct split
/// across chunks is kept until it completes), then call ``finish()``.
public final class FlatXMLScanner {
    /// One start tag, valid only during the callback that receives it (its
    /// bytes live in the scanner's buffer).
    public struct StartTag {
        /// The 1-based line where the tag starts.
        public let line: Int
        /// 0 for the root element, 1 for its children, …
        public let depth: Int
        let base: UnsafePointer<UInt8>
        let name: Range<Int>
        let attributes: UnsafeBufferPointer<Attribute>

        /// Whether the element's name is `name` (compared as bytes).
        public func isNamed(_ name: StaticString) -> Bool { Self.equal(base, self.name, name) }

        /// The element's name.
        public var nameString: String { String(decoding: UnsafeBufferPointer(start: base + name.lowerBound, count: name.count), as: UTF8.self) }

        /// The raw bytes of attribute `name` (entity references not decoded), or nil when absent.
        public func raw(_ name: StaticString) -> UnsafeBufferPointer<UInt8>? {
            for a in attributes where Self.equal(base, a.name, name) {
                return UnsafeBufferPointer(start: base + a.value.lowerBound, count: a.value.count)
            }
            return nil
        }

        /// Attribute `name` with its entity and character references decoded, or nil when absent.
        public func string(_ name: StaticString) -> String? {
            for a in attributes where Self.equal(base, a.name, name) {
                let bytes = UnsafeBufferPointer(start: base + a.value.lowerBound, count: a.value.count)
                return a.hasReferences ? FlatXMLScanner.decodeReferences(bytes) : String(decoding: bytes, as: UTF8.self)
            }
            return nil
        }

        static func equal(_ base: UnsafePointer<UInt8>, _ range: Range<Int>, _ name: StaticString) -> Bool {
            guard range.count == name.utf8CodeUnitCount else { return false }
            let expected = name.utf8Start
            for k in 0..<range.count where base[range.lowerBound + k] != expected[k] { return false }
            return true
        }
    }

    struct Attribute {
        var name: Range<Int>
        var value: Range<Int>
        var hasReferences: Bool
    }

    /// The longest tag, comment, processing instruction or DTD accepted.
    public let maxConstructBytes: Int
    /// The line the scanner has reached.
    public private(set) var line = 1
    /// Open elements.
    public private(set) var depth = 0
    /// Whether the DTD declared entities (named in errors about references to them).
    public private(set) var dtdDeclaresEntities = false
    /// Bytes consumed so far.
    public private(set) var bytesConsumed: Int64 = 0

    private var buffer: [UInt8] = []
    private var attributes: [Attribute] = []

    public init(maxConstructBytes: Int = 1 << 20) {
        self.maxConstructBytes = maxConstructBytes
        attributes.reserveCapacity(16)
    }

    /// Scans `chunk`, calling `onStartTag` for each start tag completed.
    public func feed(_ chunk: UnsafeRawBufferPointer, _ onStartTag: (StartTag) throws -> Void) throws {
        // Work on a local copy moved out of the property, so no access to a
        // stored property stays open while the handler runs.
        var pending = buffer
        buffer = []
        pending.append(contentsOf: chunk)
        let consumed = try pending.withUnsafeBufferPointer { try scan($0, onStartTag) }
        bytesConsumed += Int64(consumed)
        if consumed == pending.count {
            pending.removeAll(keepingCapacity: true)
        } else if consumed > 0 {
            pending.removeFirst(consumed)
        }
        buffer = pending
        if buffer.count > maxConstructBytes {
            throw FlatXMLError(line: line, reason: "a tag, comment or DTD longer than \(maxConstructBytes) bytes (is this an XML file?)")
        }
    }

    /// Checks that the document ended cleanly (no construct cut off, every element closed).
    public func finish() throws {
        if buffer.contains(where: { !Self.isSpace($0) }) {
            throw FlatXMLError(line: line, reason: "the file ends inside a tag (was it cut short?)")
        }
        if depth > 0 {
            throw FlatXMLError(line: line, reason: "the file ends with \(depth) element(s) still open (was it cut short?)")
        }
    }

    // MARK: - Scanning

    private static let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), amp = UInt8(ascii: "&"), nl = UInt8(ascii: "\n")
    private static let slash = UInt8(ascii: "/"), bang = UInt8(ascii: "!"), question = UInt8(ascii: "?")
    private static let quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'"), equals = UInt8(ascii: "=")

    @inline(__always) static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D }

    /// Scans complete constructs of `p`; returns the bytes consumed.
    private func scan(_ p: UnsafeBufferPointer<UInt8>, _ onStartTag: (StartTag) throws -> Void) throws -> Int {
        let n = p.count
        var i = 0
        while i < n {
            let c = p[i]
            if c != Self.lt {
                // Character data: only references need checking.
                if c == Self.nl { line += 1 } else if c == Self.amp {
                    guard let end = try reference(p, at: i) else { return i }
                    i = end
                    continue
                }
                i += 1
                continue
            }
            guard i + 1 < n else { return i }
            var lines = 0
            let next = p[i + 1]
            let end: Int?
            if next == Self.question {
                end = find(p, from: i + 2, "?>", &lines)
            } else if next == Self.bang {
                end = try markupDeclaration(p, at: i, &lines)
            } else if next == Self.slash {
                end = find(p, from: i + 2, ">", &lines)
                if end != nil {
                    depth -= 1
                    if depth < 0 { throw FlatXMLError(line: line, reason: "a closing tag with no element open") }
                }
            } else {
                end = try startTag(p, at: i, &lines, onStartTag)
            }
            guard let end else { return i }
            line += lines
            i = end
        }
        return i
    }

    /// The index after `terminator` found from `start`, counting newlines; nil when not yet in the buffer.
    private func find(_ p: UnsafeBufferPointer<UInt8>, from start: Int, _ terminator: StaticString, _ lines: inout Int) -> Int? {
        let t = terminator.utf8Start
        let tn = terminator.utf8CodeUnitCount
        var j = start
        var newlines = 0
        while j + tn <= p.count {
            if p[j] == t[0] {
                var k = 1
                while k < tn && p[j + k] == t[k] { k += 1 }
                if k == tn { lines += newlines; return j + tn }
            }
            if p[j] == Self.nl { newlines += 1 }
            j += 1
        }
        return nil
    }

    private func hasPrefix(_ p: UnsafeBufferPointer<UInt8>, at i: Int, _ prefix: StaticString) -> Bool? {
        let t = prefix.utf8Start
        for k in 0..<prefix.utf8CodeUnitCount {
            guard i + k < p.count else { return nil }
            if p[i + k] != t[k] { return false }
        }
        return true
    }

    /// `<!-- -->`, `<![CDATA[ ]]>` or `<!DOCTYPE … >`; nil when incomplete.
    private func markupDeclaration(_ p: UnsafeBufferPointer<UInt8>, at i: Int, _ lines: inout Int) throws -> Int? {
        guard let isComment = hasPrefix(p, at: i, "<!--") else { return nil }
        if isComment { return find(p, from: i + 4, "-->", &lines) }
        guard let isCDATA = hasPrefix(p, at: i, "<![CDATA[") else { return nil }
        if isCDATA { return find(p, from: i + 9, "]]>", &lines) }
        guard let isDoctype = hasPrefix(p, at: i, "<!DOCTYPE") else { return nil }
        guard isDoctype, depth == 0 else {
            throw FlatXMLError(line: line, reason: "unexpected markup '<!' (only comments, CDATA and one DOCTYPE are read)")
        }
        return try doctype(p, from: i + 9, &lines)
    }

    /// Skips a DOCTYPE and its internal subset without interpreting it.
    private func doctype(_ p: UnsafeBufferPointer<UInt8>, from start: Int, _ lines: inout Int) throws -> Int? {
        var j = start
        var newlines = 0
        var inSubset = false
        var quote: UInt8 = 0
        var declaresEntities = false
        while j < p.count {
            let c = p[j]
            if c == Self.nl { newlines += 1 }
            if quote != 0 {
                if c == quote { quote = 0 }
            } else if c == Self.quote || c == Self.apostrophe {
                quote = c
            } else if inSubset && c == Self.lt {
                guard let isComment = hasPrefix(p, at: j, "<!--") else { return nil }
                if isComment {
                    var commentLines = 0
                    guard let end = find(p, from: j + 4, "-->", &commentLines) else { return nil }
                    newlines += commentLines
                    j = end
                    continue
                }
                guard let isEntity = hasPrefix(p, at: j, "<!ENTITY") else { return nil }
                if isEntity { declaresEntities = true }
            } else if c == UInt8(ascii: "[") && !inSubset {
                inSubset = true
            } else if c == UInt8(ascii: "]") && inSubset {
                inSubset = false
            } else if c == Self.gt && !inSubset {
                lines += newlines
                if declaresEntities { dtdDeclaresEntities = true }
                return j + 1
            }
            j += 1
        }
        return nil
    }

    /// A start tag; calls `onStartTag` and returns the index after it, or nil when incomplete.
    private func startTag(_ p: UnsafeBufferPointer<UInt8>, at i: Int, _ lines: inout Int,
                          _ onStartTag: (StartTag) throws -> Void) throws -> Int? {
        let n = p.count
        var j = i + 1
        while j < n, !Self.isSpace(p[j]), p[j] != Self.gt, p[j] != Self.slash { j += 1 }
        guard j < n else { return nil }
        let name = (i + 1)..<j
        guard !name.isEmpty else { throw FlatXMLError(line: line, reason: "a '<' that starts no tag") }
        var attributes = self.attributes
        self.attributes = []
        defer { self.attributes = attributes }
        attributes.removeAll(keepingCapacity: true)
        var newlines = 0
        var selfClosing = false
        while true {
            while j < n, Self.isSpace(p[j]) { if p[j] == Self.nl { newlines += 1 }; j += 1 }
            guard j < n else { return nil }
            if p[j] == Self.gt { j += 1; break }
            if p[j] == Self.slash {
                guard j + 1 < n else { return nil }
                guard p[j + 1] == Self.gt else { throw FlatXMLError(line: line + newlines, reason: "'/' not followed by '>' in a tag") }
                selfClosing = true
                j += 2
                break
            }
            let nameStart = j
            while j < n, p[j] != Self.equals, !Self.isSpace(p[j]), p[j] != Self.gt, p[j] != Self.slash { j += 1 }
            let nameEnd = j
            while j < n, Self.isSpace(p[j]) { if p[j] == Self.nl { newlines += 1 }; j += 1 }
            guard j < n else { return nil }
            guard p[j] == Self.equals, nameEnd > nameStart else {
                throw FlatXMLError(line: line + newlines, reason: "an attribute without '=\"value\"' in <\(String(decoding: UnsafeBufferPointer(rebasing: p[name]), as: UTF8.self))>")
            }
            j += 1
            while j < n, Self.isSpace(p[j]) { if p[j] == Self.nl { newlines += 1 }; j += 1 }
            guard j < n else { return nil }
            let q = p[j]
            guard q == Self.quote || q == Self.apostrophe else {
                throw FlatXMLError(line: line + newlines, reason: "an attribute value not in quotes")
            }
            j += 1
            let valueStart = j
            var references = false
            while j < n, p[j] != q {
                let c = p[j]
                if c == Self.amp { references = true } else if c == Self.nl { newlines += 1 } else if c == Self.lt {
                    throw FlatXMLError(line: line + newlines, reason: "'<' inside an attribute value")
                }
                j += 1
            }
            guard j < n else { return nil }
            if references { try checkReferences(p, valueStart..<j, line: line + newlines) }
            attributes.append(Attribute(name: nameStart..<nameEnd, value: valueStart..<j, hasReferences: references))
            j += 1
        }
        let tagLine = line
        let tagDepth = depth
        try attributes.withUnsafeBufferPointer { attrs in
            try onStartTag(StartTag(line: tagLine, depth: tagDepth, base: p.baseAddress!, name: name, attributes: attrs))
        }
        if !selfClosing { depth += 1 }
        lines += newlines
        return j
    }

    // MARK: - References

    /// Checks a reference in character data at `i`; returns the index after it, nil when incomplete.
    private func reference(_ p: UnsafeBufferPointer<UInt8>, at i: Int) throws -> Int? {
        var j = i + 1
        while j < p.count, p[j] != UInt8(ascii: ";"), j - i < 64 { j += 1 }
        guard j < p.count else { return nil }
        try checkReferences(p, i..<(j + 1), line: line)
        return j + 1
    }

    /// Throws at the first reference in `range` that is not predefined or a character reference.
    private func checkReferences(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, line: Int) throws {
        var j = range.lowerBound
        while j < range.upperBound {
            guard p[j] == Self.amp else { j += 1; continue }
            var k = j + 1
            while k < range.upperBound, p[k] != UInt8(ascii: ";") { k += 1 }
            let name = String(decoding: UnsafeBufferPointer(rebasing: p[(j + 1)..<k]), as: UTF8.self)
            guard k < range.upperBound, Self.predefined[name] != nil || Self.characterReference(name) != nil else {
                let shown = k < range.upperBound ? "&\(name.prefix(40));" : "a bare '&'"
                throw FlatXMLError(line: line, reason: dtdDeclaresEntities
                    ? "entity reference \(shown) is not expanded: tally never expands entities declared in a DTD"
                    : "\(shown) is not an XML character or predefined entity reference (tally never expands or fetches entities)")
            }
            j = k + 1
        }
    }

    static let predefined: [String: String] = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]

    /// The scalar of `#NN` or `#xHH`, when valid.
    static func characterReference(_ name: String) -> Unicode.Scalar? {
        guard name.hasPrefix("#") else { return nil }
        let body = name.dropFirst()
        let value = body.hasPrefix("x") ? UInt32(body.dropFirst(), radix: 16) : UInt32(body, radix: 10)
        guard let value, value != 0 else { return nil }
        return Unicode.Scalar(value)
    }

    /// `bytes` with references decoded (they were checked while scanning).
    static func decodeReferences(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { break }
            let name = String(rest[rest.index(after: amp)..<semi])
            if let value = predefined[name] { out += value } else if let scalar = characterReference(name) {
                out.unicodeScalars.append(scalar)
            }
            rest = rest[rest.index(after: semi)...]
        }
        out += rest
        return out
    }
}

/// XML that the ``FlatXMLScanner`` cannot read, with the line.
public struct FlatXMLError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var reason: String
    public var description: String { "line \(line): \(reason)" }
}
