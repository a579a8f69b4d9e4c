import RealmFormat

/// The one way a command runs, from the command line and from the shell alike:
///
/// 1. parse its arguments (the shell fills in its open file as FILE, and FILE's key);
/// 2. resolve its declared `Effect` into what it will write: nothing, FILE in a transaction,
///    or an output file — an output that names FILE by any path (`./x`, a symlink, a hard
///    link: compared by device and inode, not by spelling) is an in-place write of FILE;
/// 3. check that against the host: a read-only shell refuses anything that would write its
///    open file; an existing output needs `--force`; an output over FILE is refused unless
///    the output can stand in for FILE;
/// 4. take Realm's session lock for an in-place replacement (exit 75 while an app has the
///    file open; write transactions take it themselves), and run.
///
/// The read-only promise is a property of this sequence: no command can write a file the
/// pipeline did not clear, because commands write only through the `OutputTarget` it hands
/// them (or a write transaction, which their effect declares).
struct CommandPipeline {
    let host: any CommandHost

    func run(_ type: any Command.Type, _ words: [String], io: ShellIO) throws(ShellError) -> ExitCode {
        let spec = type.spec
        var arguments = try ArgumentParser.parse(words, spec: spec, file: spec.file == nil ? nil : host.openFile)
        if arguments.wantsHelp {
            io.print(host.helpText(spec))
            return .success
        }
        fillInKey(&arguments, spec: spec)
        let command = try type.init(arguments)
        let plan = try WritePlan(spec: spec, arguments: arguments, host: host)
        if plan.changesFile, !(try host.confirm(command, io: io)) { return .success }
        let lock = try plan.lockPath.map { p throws(ShellError) in try SessionLock(realmPath: p) }
        defer { lock?.release() }
        host.willRun(changingFile: plan.changesFile)
        defer { host.didRun(changingFile: plan.changesFile) }
        do {
            return try command.run(CommandContext(io: io, output: plan.output, results: host, endsProcess: host.endsProcess))
        } catch {
            // A key problem is told in terms of the key the user gave.
            throw spec.fileKeyed ? KeyOptions(arguments).explain(error) : error
        }
    }

    /// The shell's key for its open file, unless the command was given one (or its key
    /// options are not FILE's: encrypt's key is the copy's).
    private func fillInKey(_ arguments: inout ParsedArguments, spec: CommandSpec) {
        guard let key = host.openFileKey, spec.fileKeyed,
              spec.options.contains(where: { $0.long == KeyOptions.keyFile.descriptor.long }),
              !arguments.isGiven(KeyOptions.keyFile), !arguments.isGiven(KeyOptions.key) else { return }
        if let file = key.keyFile { arguments.set(KeyOptions.keyFile, to: file) }
        if let hex = key.keyHex { arguments.set(KeyOptions.key, to: hex) }
    }
}

/// What one run of a command will write, checked (step 2 and 3 of `CommandPipeline`).
struct WritePlan {
    /// FILE is changed: in a transaction, or replaced by the output.
    let changesFile: Bool
    /// The output, when it goes to a file.
    let output: OutputTarget?
    /// The Realm file whose session lock the pipeline holds (an in-place replacement).
    let lockPath: String?

    init(spec: CommandSpec, arguments: ParsedArguments, host: any CommandHost) throws(ShellError) {
        let file = spec.file.flatMap(arguments.argument)
        let openFile = host.openFile.flatMap(Platform.fileIdentity)
        func isOpenFile(_ path: String) -> Bool { openFile != nil && Platform.fileIdentity(path) == openFile }
        func mayWrite(_ path: String) throws(ShellError) {
            if !host.writesAllowed, isOpenFile(path) { throw host.readOnlyRefusal(spec.name) }
        }

        switch spec.effect.resolved(arguments) {
        case .reads, .when:
            (changesFile, output, lockPath) = (false, nil, nil)
        case .changesFile:
            if let file { try mayWrite(file) }
            (changesFile, output, lockPath) = (true, nil, nil)
        case let .writes(declared):
            var named: String?
            switch declared.source {
            case let .option(option): named = arguments[option]
            case let .argument(argument): named = arguments.argument(argument)
            }
            guard let path = named ?? (declared.whenAbsent == .replacesFile ? file : nil) else {
                if declared.whenAbsent == .required, case let .option(option) = declared.source {
                    let o = option.descriptor
                    throw ShellError("missing \(o.short.map { "-\($0)" } ?? "--" + o.long) \(o.valueName?.uppercased() ?? "")",
                                     code: .usage, usageOf: spec.name)
                }
                (changesFile, output, lockPath) = (false, nil, nil)
                return
            }
            let identity = Platform.fileIdentity(path)
            let isFile = file != nil && identity != nil && identity == Platform.fileIdentity(file!)
            try mayWrite(path)
            if isFile || isOpenFile(path) {
                guard declared.canReplaceFile, isFile, let file else {
                    let what = isFile ? "\(spec.file!.name) itself (\(file!))" : "the shell's open file"
                    throw ShellError("\(path) is \(what); \(spec.name) writes a new file: choose another name", code: .cannotCreate)
                }
                if named != nil, !arguments[declared.force] {
                    throw ShellError("\(path) exists (it is \(file) itself); pass --force to replace it", code: .cannotCreate)
                }
                output = OutputTarget(path: path, destination: Platform.resolvedPath(file) ?? file, replacesFile: true)
                (changesFile, lockPath) = (true, file)
            } else {
                if identity != nil || Platform.fileExists(path), !arguments[declared.force] {
                    throw ShellError("\(path) exists; pass --force to replace it", code: .cannotCreate)
                }
                output = OutputTarget(path: path, destination: path, replacesFile: false)
                (changesFile, lockPath) = (false, nil)
            }
        }
    }
}
