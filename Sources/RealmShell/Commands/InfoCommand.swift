import RealmFormat
import RealmObjects

/// `realmsh info FILE`: what is in a file and in what state, without reading its objects.
struct InfoCommand: Command {
    static let spec = CommandSpec(
        name: "info",
        abstract: "Show a file's format, version, history, schema version, classes and free space.",
        discussion: "Reads only the header, the top array and the table catalogue, so it is instant on files of any size. The file is never modified, and an app holding it open does not stop it.",
        arguments: [.init("FILE", help: "The .realm file.")],
        options: [.value("format", name: "format", help: "Output format.", choices: ["text", "json"])] + KeyOptions.options,
        examples: ["realmsh info default.realm", "realmsh info --format json default.realm | jq .classes"])

    let path: String
    let key: KeyOptions
    let json: Bool

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments.positionals[0]
        key = KeyOptions(arguments)
        json = arguments.value("format") == "json"
    }

    func run(_ io: ShellIO) throws(ShellError) -> ExitCode {
        let open = try OpenRealm(path: path, key: key.resolve(io))
        let file = open.file
        let snapshot = file.snapshot
        do {
            var classCounts = [(String, Int)]()
            for c in file.classes { classCounts.append((c.name, try file.objectCount(of: c))) }
            var internalCounts = [(String, Int)]()
            for t in file.internalTables {
                let n = try t.clusterRef.map { r throws(FormatError) in try ClusterTree(snapshot: snapshot, rootRef: r).count() } ?? 0
                internalCounts.append((t.name, n))
            }
            let free = try Self.onDisk(snapshot).freeSpace()
            let schemaVersion = try file.schemaVersion()
            if json {
                writeJSON(io, file: file, classes: classCounts, internals: internalCounts, free: free,
                          schemaVersion: schemaVersion, lockHeld: open.lockHeld)
            } else {
                writeText(io, file: file, classes: classCounts, internals: internalCounts, free: free,
                          schemaVersion: schemaVersion, lockHeld: open.lockHeld)
            }
        } catch {
            throw ShellError.reading(path, error)
        }
        open.writerWarning(io)
        return .success
    }

    /// The snapshot as it is on disk: a file of formats 2–9 is read through a converted image,
    /// but its header, top array and free space are the file's own.
    static func onDisk(_ snapshot: Snapshot) -> Snapshot { snapshot.legacy?.source ?? snapshot }

    static func form(_ header: FileHeader) -> String {
        if header.isStreaming { return "streaming (top ref in the footer, as written by compaction or writeCopy)" }
        if header.topRefs.0 == FileHeader.streamingMarker { return "compacted (slot 1 current, streaming footer kept)" }
        return "normal"
    }

    static func lockText(_ held: Bool?) -> String {
        switch held {
        case true?: return "held by another process (a writer is active; showing the last committed version)"
        case false?: return "not held"
        case nil: return "no lock file"
        }
    }

    private func writeText(_ io: ShellIO, file: RealmFile, classes: [(String, Int)], internals: [(String, Int)],
                           free: FreeSpace, schemaVersion: Int64?, lockHeld: Bool?) {
        let s = Self.onDisk(file.snapshot)
        let h = s.header
        let size = s.image.count
        var rows: [(String, String)] = [
            ("File", "\(file.path) (\(Platform.fileSize(file.path) ?? size) bytes)"),
            ("Format", "\(s.fileFormat) — \(FileFormat.era(s.fileFormat))"),
            ("Form", Self.form(h)),
            ("Top ref", h.topRef == 0 ? "0 (nothing committed yet)" : "\(hex(h.topRef)) (\(h.isStreaming ? "footer" : "slot \(h.slot)"))"),
        ]
        if let top = s.top {
            rows.append(("Version", String(top.version)))
            var history = top.historyTypeName
            if top.slotCount > 9 { history += ", history schema \(top.historySchemaVersion)" }
            if top.syncFileIdent != 0 { history += ", sync file ident \(top.syncFileIdent)" }
            rows.append(("History", history))
            rows.append(("Logical size", "\(top.logicalSize) bytes"))
            rows.append(("Free space", "\(free.totalBytes) bytes in \(free.entries.count) ranges"))
        }
        rows.append(("Schema version", schemaVersion.map { $0 == -1 ? "not versioned" : String($0) } ?? "none (no metadata table)"))
        rows.append(("Encrypted", file.snapshot.isEncrypted ? "yes (AES-256 + HMAC-SHA224 pages)" : "no"))
        if file.snapshot.legacy != nil {
            rows.append(("Read as", "converted in memory as Realm Core 13 upgrades it (the file is not changed; 'realmsh upgrade' writes that copy)"))
        }
        rows.append(("Lock", Self.lockText(lockHeld)))
        if file.isRawForm { rows.append(("Layout", "plain core file (no object-store classes): tables shown under their own names")) }
        let width = rows.map { $0.0.count }.max() ?? 0
        for (k, v) in rows { io.print(io.bold((k + ":").padding(to: width + 2)) + v) }
        io.print("")
        io.print(io.bold("Classes (\(classes.count)):"))
        if classes.isEmpty { io.print("  (none)") }
        let nameWidth = (classes + internals).map { $0.0.count }.max() ?? 0
        for (name, count) in classes {
            let c = file.objectClass(named: name)
            var note = ""
            if c?.isEmbedded == true { note = "  embedded" }
            if c?.isAsymmetric == true { note = "  asymmetric" }
            // Enumerated string columns (§9.4.4, `compact --enumerate-strings`): how the file
            // stores them matters for size and for later writes by apps.
            if let table = c?.table {
                let enumerated = table.columns.filter { table.enumValuesRef(for: $0) != nil }.map(\.name)
                if !enumerated.isEmpty { note += "  enumerated strings: " + enumerated.joined(separator: ", ") }
            }
            io.print("  " + name.padding(to: nameWidth + 2) + Self.objects(count) + io.dim(note))
        }
        if !internals.isEmpty {
            io.print("")
            io.print(io.bold("Internal tables (\(internals.count)):"))
            for (name, count) in internals { io.print("  " + name.padding(to: nameWidth + 2) + Self.objects(count)) }
        }
    }

    static func objects(_ n: Int) -> String { n == 1 ? "1 object" : "\(n) objects" }

    private func writeJSON(_ io: ShellIO, file: RealmFile, classes: [(String, Int)], internals: [(String, Int)],
                           free: FreeSpace, schemaVersion: Int64?, lockHeld: Bool?) {
        let s = Self.onDisk(file.snapshot)
        var out = JSONEmitter(sink: io.stdout)
        out.beginObject()
        out.key("path"); out.string(file.path)
        out.key("fileSize"); out.int(Int64(s.image.count))
        out.key("formatVersion"); out.int(Int64(s.fileFormat))
        out.key("era"); out.string(FileFormat.era(s.fileFormat))
        out.key("streamingForm"); out.bool(s.header.isStreaming)
        out.key("topRef"); out.int(Int64(s.header.topRef))
        out.key("topRefSlot"); if s.header.isStreaming { out.string("footer") } else { out.int(Int64(s.header.slot)) }
        out.key("version"); if let t = s.top { out.int(Int64(bitPattern: t.version)) } else { out.null() }
        out.key("historyType"); if let t = s.top { out.int(Int64(t.historyType)) } else { out.null() }
        out.key("historySchemaVersion"); if let t = s.top { out.int(Int64(t.historySchemaVersion)) } else { out.null() }
        out.key("logicalSize"); if let t = s.top { out.int(Int64(t.logicalSize)) } else { out.null() }
        out.key("freeBytes"); out.int(Int64(free.totalBytes))
        out.key("freeRanges"); out.int(Int64(free.entries.count))
        out.key("schemaVersion"); if let v = schemaVersion { out.int(v) } else { out.null() }
        out.key("encrypted"); out.bool(file.snapshot.isEncrypted)
        out.key("lockHeld"); if let l = lockHeld { out.bool(l) } else { out.null() }
        out.key("rawForm"); out.bool(file.isRawForm)
        for (key, list) in [("classes", classes), ("internalTables", internals)] {
            out.key(key)
            out.beginArray()
            for (name, count) in list {
                out.beginObject()
                out.key("name"); out.string(name)
                out.key("objects"); out.int(Int64(count))
                out.end()
            }
            out.end()
        }
        out.end()
        out.raw("\n")
        out.flush()
    }
}

extension String {
    /// Left-aligned in a field of `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
