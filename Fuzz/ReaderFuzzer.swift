// libFuzzer entry point for the reader (Docs/fuzzing.md). Fuzz/build.sh compiles this file
// together with the sources of RealmFormat and RealmObjects as a single module, so their
// types are used here without an import.

/// Opens the input as a Realm file and writes its canonical dump to memory. A thrown error is
/// the expected outcome for most inputs; anything else (a trap, an out-of-bounds read caught
/// by AddressSanitizer, a hang, runaway memory) is a bug that libFuzzer reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // A heap copy of exactly `size` bytes, so AddressSanitizer sees any read past the end.
    let image = ByteImage(bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    do {
        let snapshot = try Snapshot(image: image)
        let file = try RealmFile(path: "fuzz-input", snapshot: snapshot)
        try CanonicalDump.write(file, to: MemorySink())
    } catch {
        // FormatError (or an error thrown through the dump): the input was rejected cleanly.
    }
    return 0
}
