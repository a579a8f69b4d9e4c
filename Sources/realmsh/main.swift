import RealmObjects
import RealmFormat
let path = CommandLine.arguments[1]
do {
    let file = try RealmFile(path: path)
    try CanonicalDump.write(file, to: FileSink(fd: 1))
} catch let e as FormatError { print("ERR", e.message) } catch { print("ERR", error) }
