import RealmFormat
import RealmShell

Platform.ignoreBrokenPipe()
// Character widths (tables) and readline's editing need a UTF-8 LC_CTYPE.
Platform.useUTF8CharacterLocale()
// A fatal signal while an output file is being written removes its temporary file.
Platform.removeTemporaryFilesOnTermination()
Platform.exitProcess(RealmShell.run(Array(CommandLine.arguments.dropFirst()), io: .standard(), endsProcess: true))
