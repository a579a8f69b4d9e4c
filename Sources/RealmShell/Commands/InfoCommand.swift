import RealmFormat
import RealmObjects

/// `realmsh info FILE`: what is in a file and in what state, without reading its objects.
struct InfoCommand: Command {
    static let format = Option<String>("format", value: "format", help: "Output format.", choices: ["text", "json"])
    static let spec = CommandSpec(
        name: "info",
        abstract: "Show a file's format, version, history, schema version, classes and free space.",
        discussion: "Reads only the header, the top array and the table catalogue, so it is instant on files of any size. The file is never modified, and an app holding it open does not stop it.",
        arguments: [.realmFile], file: .realmFile, effect: .reads,
        options: [format] + KeyOptions.all,
        examples: ["realmsh info default.realm", "realmsh info --format json default.realm | jq .classes"])

    let path: String
    let key: KeyOptions
    let json: Bool

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments[Positional.realmFile]
        key = KeyOptions(arguments)
        json = arguments[Self.format] == "json"
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        let io = context.io
        let k = try key.resolve(io)
        // A file of formats 2–9 is not converted for info: its catalogue is read from the old
        // structures (Docs/legacy-formats.md §8.4), unless only converting names its classes.
        let open = try OpenRealm(path: path, key: k, convertingLegacy: false)
        context.leaveOpenUntilExit(open.file)
        do {
            let facts: Facts
            if let group = open.file.snapshot.legacy, let catalogue = try group.catalogue() {
                facts = try Self.facts(catalogue, path: path, snapshot: open.file.snapshot)
            } else if open.file.snapshot.isLegacyCatalogue {
                facts = try Self.facts(try OpenRealm(path: path, key: k).file)
            } else {
                facts = try Self.facts(open.file)
            }
            if json { writeJSON(io, facts, lockHeld: open.lockHeld) } else { writeText(io, facts, lockHeld: open.lockHeld) }
        } catch {
            throw ShellError.from(error, path: path)
        }
        open.writerWarning(io)
        return .success
    }

    /// What info prints.
    struct Facts {
        let path: String
        /// The snapshot opened (for encryption and the legacy origin).
        let snapshot: Snapshot
        let isRawForm: Bool
        var classes: [(name: String, objects: Int, note: String)] = []
        var internals: [(String, Int)] = []
        let free: FreeSpace
        let schemaVersion: Int64?
    }

    static func facts(_ file: RealmFile) throws(FormatError) -> Facts {
        let snapshot = file.snapshot
        var facts = Facts(path: file.path, snapshot: snapshot, isRawForm: file.isRawForm,
                          free: try onDisk(snapshot).freeSpace(), schemaVersion: try file.schemaVersion())
        for c in file.classes {
            var note = ""
            if c.isEmbedded { note = "  embedded" }
            if c.isAsymmetric { note = "  asymmetric" }
            // Enumerated string columns (§9.4.4, `compact --enumerate-strings`): how the file
            // stores them matters for size and for later writes by apps.
            let enumerated = c.table.columns.filter { c.table.enumValuesRef(for: $0) != nil }.map(\.name)
            if !enumerated.isEmpty { note += "  enumerated strings: " + enumerated.joined(separator: ", ") }
            facts.classes.append((c.name, try file.objectCount(of: c), note))
        }
        for t in file.internalTables {
            let n = try t.clusterRef.map { r throws(FormatError) in try ClusterTree(snapshot: snapshot, rootRef: r).count() } ?? 0
            facts.internals.append((t.name, n))
        }
        return facts
    }

    /// An old file's tables as the conversion names them, counted from their old columns.
    static func facts(_ catalogue: LegacyCatalogue, path: String, snapshot: Snapshot) throws(FormatError) -> Facts {
        let rawForm = RealmFile.isRawForm(tableNames: catalogue.tables.map(\.name))
        var facts = Facts(path: path, snapshot: snapshot, isRawForm: rawForm, free: try onDisk(snapshot).freeSpace(),
                          schemaVersion: catalogue.schemaVersion)
        for t in catalogue.tables {
            if let name = RealmFile.className(tableName: t.name, isRawForm: rawForm) {
                facts.classes.append((name, t.objects, ""))
            } else {
                facts.internals.append((t.name, t.objects))
            }
        }
        facts.classes.sort { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        return facts
    }

    /// The snapshot as it is on disk: a file of formats 2–9 is read through a converted image,
    /// but its header, top array and free space are the file's own.
    static func onDisk(_ snapshot: Snapshot) -> Snapshot { snapshot.isLegacyCatalogue ? snapshot : snapshot.legacy?.source ?? snapshot }

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

    private func writeText(_ io: ShellIO, _ facts: Facts, lockHeld: Bool?) {
        let (classes, internals, free, schemaVersion) = (facts.classes, facts.internals, facts.free, facts.schemaVersion)
        let s = Self.onDisk(facts.snapshot)
        let h = s.header
        let size = s.image.count
        var rows: [(String, String)] = [
            ("File", "\(facts.path) (\(Platform.fileSize(facts.path) ?? size) bytes)"),
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
        rows.append(("Encrypted", facts.snapshot.isEncrypted ? "yes (AES-256 + HMAC-SHA224 pages)" : "no"))
        if facts.snapshot.legacy != nil {
            rows.append(("Read as", "converted in memory as Realm Core 13 upgrades it (the file is not changed; 'realmsh upgrade' writes that copy)"))
        }
        rows.append(("Lock", Self.lockText(lockHeld)))
        if facts.isRawForm { rows.append(("Layout", "plain core file (no object-store classes): tables shown under their own names")) }
        let width = rows.map { $0.0.count }.max() ?? 0
        for (k, v) in rows { io.print(io.bold((k + ":").padding(to: width + 2)) + v) }
        io.print("")
        io.print(io.bold("Classes (\(classes.count)):"))
        if classes.isEmpty { io.print("  (none)") }
        let nameWidth = (classes.map(\.name) + internals.map(\.0)).map(\.count).max() ?? 0
        for (name, count, note) in classes {
            io.print("  " + name.padding(to: nameWidth + 2) + Self.objects(count) + io.dim(note))
        }
        if !internals.isEmpty {
            io.print("")
            io.print(io.bold("Internal tables (\(internals.count)):"))
            for (name, count) in internals { io.print("  " + name.padding(to: nameWidth + 2) + Self.objects(count)) }
        }
    }

    static func objects(_ n: Int) -> String { n == 1 ? "1 object" : "\(n) objects" }

    private func writeJSON(_ io: ShellIO, _ facts: Facts, lockHeld: Bool?) {
        let (free, schemaVersion) = (facts.free, facts.schemaVersion)
        let classes = facts.classes.map { ($0.name, $0.objects) }, internals = facts.internals
        let s = Self.onDisk(facts.snapshot)
        var out = JSONEmitter(sink: io.stdout)
        out.beginObject()
        out.key("path"); out.string(facts.path)
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
        out.key("encrypted"); out.bool(facts.snapshot.isEncrypted)
        out.key("lockHeld"); if let l = lockHeld { out.bool(l) } else { out.null() }
        out.key("rawForm"); out.bool(facts.isRawForm)
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
