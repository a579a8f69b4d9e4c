import RealmFormat
import RealmShell

Platform.ignoreBrokenPipe()
Platform.exitProcess(RealmShell.run(Array(CommandLine.arguments.dropFirst()), io: .standard()))
