/// Realm's page encryption (realm-format.md §14): the physical file is 4096-byte data pages,
/// each group of 64 preceded by an IV-table page of 64-byte entries [iv1, hmac1, iv2, hmac2].
/// Decrypting yields the logical byte stream that every other part of the reader works on,
/// page by page as it is first read (`DecryptedPages`).
public enum EncryptedFile {
    static let page = PageCipher.pageSize
    static let pagesPerBlock = 64

    /// §14.2: logical size for a physical size S.
    public static func logicalSize(physical s: Int) -> Int {
        if s == 0 { return 0 }
        return s - ((s / page + pagesPerBlock) / (pagesPerBlock + 1)) * page
    }

    static func ivEntryOffset(_ i: Int) -> Int { (i / pagesPerBlock) * (pagesPerBlock + 1) * page + (i % pagesPerBlock) * 64 }
    static func dataOffset(_ i: Int) -> Int { i * page + (i / pagesPerBlock + 1) * page }

    /// Opens `raw` with `key` (§14.5) for lazy reading: the returned image decrypts each page
    /// the first time it is read (`DecryptedPages`). Page 0 is decrypted here, so the distinct
    /// errors of opening stay where they were: `.notEncrypted` for a plain Realm file,
    /// `.wrongKey(page: 0)` when page 0 authenticates with neither IV/HMAC pair or does not
    /// decrypt to a Realm header, `.notARealmFile` when the file is neither. A later page that
    /// fails its HMAC (the key opened page 0, so it is damaged) fails the read that touches it
    /// with `.corrupt`.
    public static func decrypt(_ raw: ByteImage, key: EncryptionKey) throws(FormatError) -> ByteImage {
        if raw.count >= 20, (try? raw.copy(16, 4)) == Array("T-DB".utf8) { throw .notEncrypted }
        let logical = logicalSize(physical: raw.count)
        guard logical >= 24 else {
            throw .notARealmFile(reason: "\(raw.count) bytes is too small for an encrypted Realm file")
        }
        guard logical % 8 == 0, FileHeader.looksEncrypted(raw) || raw.count >= 8192 else {
            throw .notARealmFile(reason: "neither a Realm file nor an encrypted one")
        }
        guard let pages = DecryptedPages(raw: raw, logicalSize: logical, key: key) else {
            throw .io(path: "(memory)", errno: 12, action: "reserve \(logical) bytes for")  // ENOMEM
        }
        let image = ByteImage(pages: pages)
        guard (try image.copy(16, 4)) == Array("T-DB".utf8) else {
            // Pages authenticate (the HMAC half is right) but do not decrypt to a header.
            throw .wrongKey(page: 0)
        }
        return image
    }

    /// Decrypts data page `i` of `raw` into `out` (the page's logical bytes, `out.count` ≤ 4096)
    /// after checking its HMAC against the IV entry's two pairs (§14.5). A page never written
    /// (iv1 = 0) or truncated and regrown (all zeros) is left as zeros.
    static func decryptPage(_ i: Int, of raw: ByteImage, cipher: PageCipher, into out: UnsafeMutableRawBufferPointer) throws(FormatError) {
        let entryOffset = ivEntryOffset(i)
        guard raw.contains(entryOffset, 64) else {
            throw .corrupt(offset: entryOffset, reason: "the IV table entry of encrypted page \(i) is cut short (file truncated)")
        }
        let entry = raw.rawSlice(entryOffset, 64)
        let iv1 = entry.loadUnaligned(fromByteOffset: 0, as: UInt32.self).littleEndian
        let iv2 = entry.loadUnaligned(fromByteOffset: 32, as: UInt32.self).littleEndian
        if iv1 == 0 { return }                        // never written: free space only
        let position = dataOffset(i)
        guard raw.contains(position, page) else {
            // A partial trailing page whose entry is 0 is accepted above; a written one is not.
            throw .corrupt(offset: position, reason: "encrypted page \(i) is cut short (file truncated)")
        }
        let data = raw.rawSlice(position, page)
        var mac = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))   // 32 bytes, 28 used
        let macOK = withUnsafeMutableBytes(of: &mac) { cipher.hmac(data, into: $0) }
        func matches(_ at: Int) -> Bool {
            macOK && withUnsafeBytes(of: mac) { m in
                m[0..<PageCipher.macSize].elementsEqual(entry[at..<(at + PageCipher.macSize)])
            }
        }
        var iv: UInt32
        if matches(4) {
            iv = iv1
        } else if iv2 != 0, matches(36) {
            iv = iv2                                  // a rewrite was interrupted: use the previous pair
        } else if data.allSatisfy({ $0 == 0 }) {
            return                                    // truncated and regrown: zeros
        } else if i == 0 && !FileHeader.looksEncrypted(raw) {
            throw .notARealmFile(reason: "neither a Realm file nor an encrypted one")
        } else if i == 0 {
            throw .wrongKey(page: 0)
        } else {
            // Page 0 authenticated with this key, so this page was altered or damaged.
            throw .corrupt(offset: position, reason: "encrypted page \(i) fails its HMAC check (damaged page)")
        }
        // §14.3: the AES IV is the 4-byte iv counter followed by the page's logical position.
        var aesIV = (iv.littleEndian, UInt32(0), UInt32(0), UInt32(0))
        withUnsafeMutableBytes(of: &aesIV) { $0.storeBytes(of: Int64(i * page).littleEndian, toByteOffset: 4, as: Int64.self) }
        let ok = withUnsafeBytes(of: aesIV) { ivBytes -> Bool in
            if out.count == page { return cipher.crypt(data, into: out, iv: ivBytes, encrypt: false) }
            var plain = [UInt8](repeating: 0, count: page)
            let done = plain.withUnsafeMutableBytes { cipher.crypt(data, into: $0, iv: ivBytes, encrypt: false) }
            plain.withUnsafeBytes { out.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<out.count])) }
            return done
        }
        guard ok else { throw .corrupt(offset: position, reason: "libcrypto could not decrypt page \(i)") }
    }

    /// Encrypts a whole logical file as a new encrypted file (§14.6 "new file"): every data
    /// page written once with iv1 = 1, iv2 = 0 and a zero second HMAC. `logical` must already
    /// be laid out for encryption: a streaming file's footer must end a page (§3.5).
    public static func encrypt(_ logical: [UInt8], key: EncryptionKey) throws(FormatError) -> [UInt8] {
        var plain = logical
        if plain.count % page != 0 { plain += [UInt8](repeating: 0, count: page - plain.count % page) }
        let pages = plain.count / page
        guard pages > 0 else { throw .notARealmFile(reason: "nothing to encrypt") }
        let cipher = PageCipher(key: key)
        var out = [UInt8](repeating: 0, count: dataOffset(pages - 1) + page)
        var encrypted = [UInt8](repeating: 0, count: page)
        for i in 0..<pages {
            var aesIV = [UInt8](repeating: 0, count: 16)
            aesIV[0] = 1
            withUnsafeBytes(of: Int64(i * page).littleEndian) { aesIV.replaceSubrange(4..<12, with: $0) }
            let ok = plain.withUnsafeBytes { p in
                encrypted.withUnsafeMutableBytes { e in
                    cipher.crypt(UnsafeRawBufferPointer(rebasing: p[(i * page)..<((i + 1) * page)]), into: e, iv: aesIV, encrypt: true)
                }
            }
            guard ok else { throw .corrupt(offset: i * page, reason: "libcrypto could not encrypt page \(i)") }
            var mac = [UInt8](repeating: 0, count: PageCipher.macSize)
            let macOK = encrypted.withUnsafeBytes { e in mac.withUnsafeMutableBytes { cipher.hmac(e, into: $0) } }
            guard macOK else { throw .corrupt(offset: i * page, reason: "libcrypto could not authenticate page \(i)") }
            let entry = ivEntryOffset(i)
            out[entry] = 1
            out.replaceSubrange((entry + 4)..<(entry + 32), with: mac)
            out.replaceSubrange(dataOffset(i)..<(dataOffset(i) + page), with: encrypted)
        }
        return out
    }

    /// Lays out a plain file for encryption: a streaming file's 16-byte footer is moved so it
    /// ends a 4096-byte page, with zeros before it (§14.6); other files are returned as they are.
    public static func layoutForEncryption(_ plain: [UInt8]) -> [UInt8] {
        guard plain.count >= 40, plain[0..<8].allSatisfy({ $0 == 0xFF }), plain[23] & 1 == 0 else { return plain }
        let body = plain[..<(plain.count - 16)]
        let footer = plain[(plain.count - 16)...]
        let pad = (page - (body.count + 16) % page) % page
        return Array(body) + [UInt8](repeating: 0, count: pad) + Array(footer)
    }

    /// A fresh random key.
    public static func generateKey() -> EncryptionKey? {
        guard let bytes = PageCipher.randomBytes(64) else { return nil }
        return try? EncryptionKey(contents: bytes)
    }
}
