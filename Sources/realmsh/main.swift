import RealmFormat
import RealmShell

Platform.ignoreBrokenPipe()
// A fatal signal while an output file is being written removes its temporary file.
Platform.removeTemporaryFilesOnTermination()
Platform.exitProcess(RealmShell.run(Array(CommandLine.arguments.dropFirst()), io: .standard()))
