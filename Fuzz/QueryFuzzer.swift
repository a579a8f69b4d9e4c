import RealmFormat
import RealmQuery

/// libFuzzer entry point for the query language (see Docs/fuzzing.md): every input is scanned
/// as raw bytes, parsed, and — when it parses — type-checked and run against the classes of the
/// `basic` fixture with a few arguments of each kind. No input may trap, hang or leak; errors
/// must come back as `QueryError`s.
nonisolated(unsafe) let fixture: ObjectStore? = {
    let path = Platform.environment("REALMSH_FUZZ_FIXTURE") ?? "../shared/fixtures/realm-core/basic.realm"
    return (try? Snapshot(path: path)).map { ObjectStore(snapshot: $0) }
}()

let arguments: [QueryArgument] = [
    .int(1), .string("x"), .list([.int(1), .string(Array("Alice".utf8)), .null]), .null, .double(2.5),
    .value(.timestamp(Timestamp(seconds: 0, nanoseconds: 0))), .bool(true),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func queryFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = Lexer(bytes: bytes).tokenize()
    let text = String(decoding: bytes, as: UTF8.self)
    do {
        _ = try Parser.parse(text)
    } catch {
        _ = error.rendered(query: text)
        return 0
    }
    guard let store = fixture else { return 0 }
    for className in store.classNames {
        do {
            let query = try Query(store: store, className: className, text, arguments: arguments)
            _ = try query.objectKeys()
            _ = try query.filter("TRUEPREDICATE SORT(\(className == "Person" ? "name" : "age") DESC)").count()
        } catch let error as QueryError {
            _ = error.rendered(query: text)
        } catch {
            // A FormatError would mean the fixture is corrupt; it is not.
            fatalError("unexpected error \(error)")
        }
    }
    return 0
}
