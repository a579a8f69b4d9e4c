import Synchronization

/// The page table of an encrypted file opened for reading (realm-format.md §14): the logical
/// image is a zero-filled anonymous mapping of the logical size, reserved on open, whose 4096-byte
/// pages are decrypted (HMAC checked first, §14.5) the first time a read touches them and stay
/// where they are for the storage's life, so views that readers hold into them stay valid.
/// Untouched pages cost no memory; nothing decrypted is ever written to a file.
///
/// `ByteImage` calls `ensure` before it hands out any byte: `Node.init` for a node's whole
/// extent, and its checked reads. Thread-safe: the leaf pipeline reads a snapshot from a second
/// thread; a page's state is published with release/acquire, decryption runs under a lock.
final class DecryptedPages: @unchecked Sendable {
    // @unchecked: `logical` is written only under `cipher`'s lock, each page once, before its
    // state is published; readers read a page only after they have seen it published.
    private let raw: ByteImage
    private let logical: UnsafeMutableRawBufferPointer
    private let state: UnsafeMutablePointer<Atomic<UInt8>>
    private let pageCount: Int
    private let cipher: Mutex<Decryptor>

    /// What decryption holds under the lock: the file's one cipher, and which chunks of the
    /// logical image are committed already.
    private struct Decryptor: ~Copyable {
        let cipher: PageCipher
        var committed: [Bool]
    }

    /// The logical image is committed 16 pages (64 KB) at a time, with one `madvise` instead of
    /// a page fault per page (anonymous memory has no fault-around). Column leaves lie side by
    /// side in files realmsh writes (`NodeLayout`), so a scan decrypts runs of pages.
    static let chunkPages = 16

    /// Reserves the logical image of `raw` (nothing decrypted yet). Nil if the mapping fails.
    init?(raw: ByteImage, logicalSize: Int, key: EncryptionKey) {
        guard let reserved = Platform.reserveZeroed(logicalSize) else { return nil }
        self.raw = raw
        logical = reserved
        pageCount = (logicalSize + PageCipher.pageSize - 1) / PageCipher.pageSize
        state = UnsafeMutablePointer<Atomic<UInt8>>.allocate(capacity: max(pageCount, 1))
        for i in 0..<pageCount { (state + i).initialize(to: Atomic<UInt8>(0)) }
        let chunks = (pageCount + Self.chunkPages - 1) / Self.chunkPages
        cipher = Mutex(Decryptor(cipher: PageCipher(key: key), committed: [Bool](repeating: false, count: chunks)))
    }

    deinit {
        state.deinitialize(count: pageCount)
        state.deallocate()
        // The mapping itself belongs to the `ByteStorage` made over `bytes` (it unmaps it).
    }

    /// The logical image, for the `ByteStorage` that owns the mapping.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(logical) }

    /// How many pages have been decrypted so far (tests pin that opening is lazy).
    var decryptedPages: Int {
        (0..<pageCount).reduce(0) { $0 + (state[$1].load(ordering: .acquiring) == 0 ? 0 : 1) }
    }

    /// Decrypts every page of `[offset, offset + length)` not yet decrypted. The caller has
    /// checked that the range lies inside the image.
    @inline(__always)
    func ensure(_ offset: Int, _ length: Int) throws(FormatError) {
        guard length > 0 else { return }
        let first = offset >> 12, last = (offset + length - 1) >> 12
        var i = first
        while i <= last {
            if state[i].load(ordering: .acquiring) == 0 { try decrypt(page: i) }
            i += 1
        }
    }

    private func decrypt(page i: Int) throws(FormatError) {
        let result: Result<Void, FormatError> = cipher.withLock { decryptor in
            if state[i].load(ordering: .acquiring) != 0 { return .success(()) }
            let chunk = i / Self.chunkPages
            if !decryptor.committed[chunk] {
                let start = chunk * Self.chunkPages * PageCipher.pageSize
                let end = min(start + Self.chunkPages * PageCipher.pageSize, logical.count)
                Platform.populate(UnsafeMutableRawBufferPointer(rebasing: logical[start..<end]))
                decryptor.committed[chunk] = true
            }
            do throws(FormatError) {
                let start = i * PageCipher.pageSize
                let length = min(PageCipher.pageSize, logical.count - start)
                try EncryptedFile.decryptPage(i, of: raw, cipher: decryptor.cipher,
                                              into: UnsafeMutableRawBufferPointer(rebasing: logical[start..<(start + length)]))
            } catch {
                return .failure(error)
            }
            state[i].store(1, ordering: .releasing)
            return .success(())
        }
        try result.get()
    }
}
