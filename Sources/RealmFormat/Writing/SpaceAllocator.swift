/// Where a commit puts new nodes (realm-format.md §13.2, §13.3): into free-list entries the
/// committed version no longer needs, or past the logical end of the file. Holding the
/// exclusive lock, every entry whose version is at most the committed version is reusable;
/// space released by the commit being built is not (the transaction records it separately).
struct SpaceAllocator {
    typealias Entry = (position: Int, length: Int, version: Int64)

    /// Reusable ranges, sorted by position, adjacent ones merged.
    private var chunks: [(position: Int, length: Int)] = []
    /// Entries of versions newer than the committed one: kept as they are.
    private(set) var lockedEntries: [Entry] = []
    private(set) var logicalEnd: Int

    init(snapshot: Snapshot, baseVersion: UInt64) throws(FormatError) {
        guard let top = snapshot.top else { throw .cannotWrite(reason: "no top array") }
        logicalEnd = top.logicalSize
        var reusable = [(position: Int, length: Int)]()
        for e in try snapshot.freeSpace().entries {
            guard e.position >= 24, e.length > 0, e.position % 8 == 0, e.length % 8 == 0,
                  e.position + e.length <= logicalEnd else {
                throw .corrupt(offset: e.position, reason: "free-list entry [\(e.position), +\(e.length)) is invalid; run 'realmsh verify'")
            }
            if let v = e.version, v > Int64(baseVersion) {
                lockedEntries.append((e.position, e.length, v))
            } else {
                reusable.append((e.position, e.length))
            }
        }
        reusable.sort { $0.position < $1.position }
        for r in reusable {
            if let last = chunks.last, last.position + last.length == r.position {
                chunks[chunks.count - 1].length += r.length
            } else {
                chunks.append(r)
            }
        }
    }

    /// An 8-aligned range of `size` bytes: the first reusable chunk that fits, else new space
    /// past the end (growing like Realm: double below 1 MiB, else 1 MiB steps, page-rounded).
    mutating func allocate(_ size: Int) -> Int {
        if let i = chunks.firstIndex(where: { $0.length >= size }) {
            let position = chunks[i].position
            if chunks[i].length == size {
                chunks.remove(at: i)
            } else {
                chunks[i].position += size
                chunks[i].length -= size
            }
            return position
        }
        grow(by: size)
        return allocate(size)
    }

    private mutating func grow(by size: Int) {
        let step = max(size, logicalEnd < 1 << 20 ? logicalEnd : 1 << 20)
        let newEnd = (logicalEnd + step + 4095) / 4096 * 4096
        if let last = chunks.last, last.position + last.length == logicalEnd {
            chunks[chunks.count - 1].length += newEnd - logicalEnd
        } else {
            chunks.append((logicalEnd, newEnd - logicalEnd))
        }
        logicalEnd = newEnd
    }

    /// Reserves the chunk for the free lists and the top array (all 64-bit wide). The number of
    /// entries must not change once the size is fixed, so the chunk is cut from a range that
    /// keeps a remainder, or from new space that leaves one.
    mutating func reserveFinalChunk(topSlots: Int, freedCount: Int) -> (position: Int, length: Int, count: Int) {
        let topSize = 8 + 8 * topSlots
        func size(_ entries: Int) -> Int { 3 * (8 + 8 * entries) + topSize }
        let n = chunks.count + lockedEntries.count + freedCount
        if let i = chunks.firstIndex(where: { $0.length >= size(n) + 8 }) {
            let position = chunks[i].position
            chunks[i].position += size(n)
            chunks[i].length -= size(n)
            return (position, size(n), n)
        }
        // New space: the reservation plus a remainder, which becomes entry n + 1.
        let needed = size(n + 1)
        let start = logicalEnd
        logicalEnd = (logicalEnd + needed + 8 + 4095) / 4096 * 4096
        chunks.append((start + needed, logicalEnd - start - needed))
        return (start, needed, n + 1)
    }

    /// The reusable ranges left, as free-list entries of `version`.
    func remainingEntries(version: Int64) -> [Entry] {
        chunks.filter { $0.length > 0 }.map { ($0.position, $0.length, version) }
    }
}
