/// The free-space lists of the top array (realm-format.md §5 slots 3–5, §13.3): byte ranges
/// inside the logical file that no live node uses.
public struct FreeSpace: Sendable {
    public struct Entry: Sendable {
        public let position: Int
        public let length: Int
        /// The version whose commit released the range (nil without a versions list).
        public let version: Int64?
    }

    public let entries: [Entry]
    public var totalBytes: Int { entries.reduce(0) { $0 + $1.length } }
}

extension Snapshot {
    /// The free lists; empty for streaming-form files and files without them.
    public func freeSpace() throws(FormatError) -> FreeSpace {
        guard let top, let posRef = top.freePositionsRef, let lenRef = top.freeLengthsRef else {
            return FreeSpace(entries: [])
        }
        let positions = try plainInts(posRef)
        let lengths = try plainInts(lenRef)
        let versions = try top.freeVersionsRef.map { r throws(FormatError) in try plainInts(r) }
        guard positions.count == lengths.count, versions.map({ $0.count == positions.count }) ?? true else {
            throw .corrupt(offset: posRef, reason: "free-space lists have different lengths")
        }
        let entries = (0..<positions.count).map { i in
            FreeSpace.Entry(position: Int(positions.int(i)), length: Int(lengths.int(i)), version: versions?.int(i))
        }
        return FreeSpace(entries: entries)
    }
}
