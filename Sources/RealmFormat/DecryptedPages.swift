import Synchronization

/// The page table of an encrypted file opened for reading (realm-format.md §14): the logical
/// image is a zero-filled anonymous mapping of the logical size, reserved on open, whose 4096-byte
/// pages are decrypted (HMAC checked first, §14.5) the first time a read touches them and stay
/// where they are for the storage's life, so views that readers hold into them stay valid.
/// Pages never touched cost no memory; nothing decrypted is ever written to a file.
///
/// `ByteImage` calls `ensure` before it hands out any byte: `Node.init` for a node's whole
/// extent, and its checked reads. Thread-safe, and pages decrypt in parallel: each page is
/// claimed by one thread (state 0 → 2), decrypted with a cipher of its own from a small pool,
/// then published (→ 1, release/acquire); a thread that needs a page another one is decrypting
/// waits for it. `prefetch` uses that to decrypt a whole column's leaves on two threads before
/// a scan reads them.
final class DecryptedPages: @unchecked Sendable {
    // @unchecked: a page of `logical` is written only by the thread that claimed it, before
    // its state is published; readers read a page only after they have seen it published.
    private let raw: ByteImage
    private let logical: UnsafeMutableRawBufferPointer
    private let state: UnsafeMutablePointer<Atomic<UInt8>>
    private let committed: UnsafeMutablePointer<Atomic<UInt8>>
    private let pageCount: Int
    private let key: EncryptionKey
    /// Ciphers not in use; a thread takes one per page (`PageCipher` is not thread-safe).
    private let ciphers = Mutex<[PageCipher]>([])

    private static let encrypted: UInt8 = 0, ready: UInt8 = 1, claimed: UInt8 = 2

    /// The logical image is committed 4 pages (16 KB) at a time, with one `madvise` instead of
    /// a page fault per page (anonymous memory has no fault-around). Column leaves lie side by
    /// side in files realmsh writes (`NodeLayout`), so a scan decrypts runs of pages; but the
    /// nodes around them (cluster leaves, key arrays) are single pages far apart, and 16-page
    /// chunks committed (zeroed) 15 unused pages for each: a count scan of the encrypted 1M
    /// file took 13.8–16.8 ms with 16, 9.5–12.7 ms with 4 (string scans and `info` the same).
    static let chunkPages = 4

    /// Below this many leaves, a column is decrypted as it is read, on one thread.
    static let prefetchMinimum = 64

    /// Below this many bytes of leaves, too: a second thread costs more than it saves. Started
    /// for a scan of a few milliseconds, it shares the first one's CPU, as this machine's
    /// scheduler packs a process's threads onto one vCPU until it sees sustained load
    /// (`sched_vcpu_pack`; `perf sched timehist` shows the new thread run only while the first
    /// waits for it). A count of the encrypted 1M file's ages (1 MB of leaves, 252 pages)
    /// cost 0.4–0.7 ms more CPU on two threads and was no faster; a CONTAINS scan of its names
    /// (4,145 pages) is 5 % faster on two (Benchmarks/README.md, "Encrypted count as a process").
    static let parallelMinimumBytes = 4 << 20

    /// Reserves the logical image of `raw` (nothing decrypted yet). Nil if the mapping fails.
    init?(raw: ByteImage, logicalSize: Int, key: EncryptionKey) {
        guard let reserved = Platform.reserveZeroed(logicalSize) else { return nil }
        self.raw = raw
        self.key = key
        logical = reserved
        pageCount = (logicalSize + PageCipher.pageSize - 1) / PageCipher.pageSize
        state = UnsafeMutablePointer<Atomic<UInt8>>.allocate(capacity: max(pageCount, 1))
        for i in 0..<pageCount { (state + i).initialize(to: Atomic<UInt8>(Self.encrypted)) }
        let chunks = max((pageCount + Self.chunkPages - 1) / Self.chunkPages, 1)
        committed = UnsafeMutablePointer<Atomic<UInt8>>.allocate(capacity: chunks)
        for i in 0..<chunks { (committed + i).initialize(to: Atomic<UInt8>(0)) }
    }

    deinit {
        state.deinitialize(count: pageCount)
        state.deallocate()
        let chunks = max((pageCount + Self.chunkPages - 1) / Self.chunkPages, 1)
        committed.deinitialize(count: chunks)
        committed.deallocate()
        // The mapping itself belongs to the `ByteStorage` made over `bytes` (it unmaps it).
    }

    /// The logical image, for the `ByteStorage` that owns the mapping.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(logical) }

    /// How many pages have been decrypted so far (tests pin that opening is lazy).
    var decryptedPages: Int {
        (0..<pageCount).reduce(0) { $0 + (state[$1].load(ordering: .acquiring) == Self.ready ? 1 : 0) }
    }

    /// Decrypts every page of `[offset, offset + length)` not yet decrypted. The caller has
    /// checked that the range lies inside the image.
    @inline(__always)
    func ensure(_ offset: Int, _ length: Int) throws(FormatError) {
        guard length > 0 else { return }
        let first = offset >> 12, last = (offset + length - 1) >> 12
        var i = first
        while i <= last {
            if state[i].load(ordering: .acquiring) != Self.ready { try decrypt(page: i) }
            i += 1
        }
    }

    private func decrypt(page i: Int) throws(FormatError) {
        while true {
            let (claimed, found) = state[i].compareExchange(expected: Self.encrypted, desired: Self.claimed,
                                                            ordering: .acquiringAndReleasing)
            if claimed { break }
            if found == Self.ready { return }
            // Another thread is decrypting it: wait for its result (on its failure the page
            // goes back to encrypted, and this thread meets the same error itself).
            while state[i].load(ordering: .acquiring) == Self.claimed { Platform.yieldThread() }
        }
        commitChunk(of: i)
        let cipher = ciphers.withLock { $0.popLast() } ?? PageCipher(key: key)
        defer { ciphers.withLock { $0.append(cipher) } }
        do {
            let start = i * PageCipher.pageSize
            let length = min(PageCipher.pageSize, logical.count - start)
            try EncryptedFile.decryptPage(i, of: raw, cipher: cipher,
                                          into: UnsafeMutableRawBufferPointer(rebasing: logical[start..<(start + length)]))
        } catch {
            state[i].store(Self.encrypted, ordering: .releasing)
            throw error
        }
        state[i].store(Self.ready, ordering: .releasing)
    }

    /// Commits page `i`'s chunk before its first page is written. Two threads may both commit
    /// it: `MADV_POPULATE_WRITE` keeps pages already present, so that is harmless.
    private func commitChunk(of i: Int) {
        let chunk = i / Self.chunkPages
        guard committed[chunk].load(ordering: .acquiring) == 0 else { return }
        let start = chunk * Self.chunkPages * PageCipher.pageSize
        let end = min(start + Self.chunkPages * PageCipher.pageSize, logical.count)
        Platform.populate(UnsafeMutableRawBufferPointer(rebasing: logical[start..<end]))
        committed[chunk].store(1, ordering: .releasing)
    }

    /// Decrypts, on two threads, the pages of the nodes at `refs` and of the children of small
    /// has-refs nodes among them (a medium string leaf's offsets, blob and nulls): the leaves
    /// of one column, which a scan is about to read one after the other. Nothing when the
    /// leaves are fewer than `prefetchMinimum` or, estimated from the first, smaller than
    /// `minimumBytes` in all: the scan then decrypts them as it reads them. Best effort: a node
    /// that fails its checks or a page that fails to decrypt is skipped here, and the scan's
    /// own read of it reports the error.
    func prefetch(nodes refs: [Int], of image: ByteImage, minimumBytes: Int) {
        guard refs.count >= Self.prefetchMinimum, let first = refs.first(where: { $0 != 0 }) else { return }
        let (perLeaf, overflow) = Self.decryptedBytes(first, of: image).multipliedReportingOverflow(by: refs.count)
        guard overflow || perLeaf >= minimumBytes else { return }
        let half = refs.count / 2
        Platform.onTwoThreads { part in
            for ref in refs[(part == 0 ? 0 : half)..<(part == 0 ? half : refs.count)] where ref != 0 {
                _ = Self.decryptedBytes(ref, of: image)
            }
        }
    }

    /// Decrypts the node at `ref` and, for a small has-refs leaf, its children (see `prefetch`);
    /// returns the bytes those nodes take (0 for a node that fails its checks).
    private static func decryptedBytes(_ ref: Int, of image: ByteImage) -> Int {
        guard let node = try? Node(image: image, ref: ref) else { return 0 }
        var bytes = node.header.byteSize
        guard node.hasRefs, !node.isInner, node.count <= 4 else { return bytes }
        for slot in 0..<node.count {
            if let child = node.ref(slot), let c = try? Node(image: image, ref: child) { bytes += c.header.byteSize }
        }
        return bytes
    }
}
