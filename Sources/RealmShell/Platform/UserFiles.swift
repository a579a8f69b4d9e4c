#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RealmFormat

/// The user's side of the file system as the shell sees it: the home directory and the
/// history file's directory, file names for Tab, programs on $PATH.
extension Platform {
    /// Creates `path` and its missing parents with `mode`; true when it exists as a directory.
    public static func makeDirectories(_ path: String, mode: UInt32) -> Bool {
        if isDirectory(path) { return true }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            _ = makeDirectories(String(path[..<slash]), mode: mode)
        }
        if mkdir(path, mode_t(mode)) == 0 { _ = chmod(path, mode_t(mode)) }
        return isDirectory(path)
    }

    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// The entries of a directory (without . and ..), each with whether it is a directory.
    public static func listDirectory(_ path: String) -> [(name: String, isDirectory: Bool)] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var out = [(name: String, isDirectory: Bool)]()
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let full = path == "/" ? "/" + name : path + "/" + name
            out.append((name, isDirectory(full)))
        }
        return out
    }

    /// The home directory: $HOME, else the password database.
    public static func homeDirectory() -> String? {
        if let home = environment("HOME"), !home.isEmpty { return home }
        guard let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir else { return nil }
        return String(cString: dir)
    }

    /// The first executable called `name` on $PATH.
    public static func findExecutable(_ name: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        for dir in (environment("PATH") ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = dir + "/" + name
            if access(candidate, X_OK) == 0 && !isDirectory(candidate) { return candidate }
        }
        return nil
    }
}
