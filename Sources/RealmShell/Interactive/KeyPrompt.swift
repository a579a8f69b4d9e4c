import RealmFormat

/// Asks a person at the terminal for an encryption key, as Realm Studio does when it opens an
/// encrypted file: the prompt on standard output, the answer read from standard input with
/// the terminal's echo off, so the key is never shown (nor kept in any history). Ctrl-C gives
/// up.
enum KeyPrompt {
    /// The line typed (without its newline), or nil on Ctrl-C or the end of input.
    static func read(_ prompt: String) -> String? {
        Platform.installInterruptHandler()
        _ = Platform.takeInterrupt()
        // Echo off before the prompt shows, so nothing typed after it is echoed.
        let echoWasOn = Platform.setEcho(0, false)
        Platform.write(prompt, to: 1)
        defer {
            if echoWasOn { Platform.setEcho(0, true) }
            Platform.write("\n", to: 1)
        }
        var line = [UInt8]()
        while true {
            if Platform.takeInterrupt() { return nil }
            switch Platform.waitForInput(0, milliseconds: 100) {
            case .ready:
                guard let chunk = Platform.readSome(0) else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
                if let end = chunk.firstIndex(where: { $0 == 10 || $0 == 13 }) {
                    line += chunk[..<end]
                    return String(decoding: line, as: UTF8.self)
                }
                line += chunk
            case .closed:
                return nil
            case .interrupted, .timedOut:
                continue
            }
        }
    }
}
