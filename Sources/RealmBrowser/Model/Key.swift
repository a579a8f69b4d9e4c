/// A key (or mouse event) as the view model sees it, independent of the terminal library.
public enum Key: Equatable, Sendable {
    case character(Character)
    /// Ctrl with a letter: `.control("c")` is Ctrl-C.
    case control(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, tab, backTab, backspace, delete, escape
    /// The terminal changed size.
    case resize
    case mouse(MouseEvent)

    /// A character from the terminal: control codes as the keys they are.
    static func fromCharacter(_ code: UInt32) -> Key? {
        switch code {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(UInt8(code) + 96)))
        default:
            guard let scalar = Unicode.Scalar(code), code >= 0x20 else { return nil }
            return .character(Character(scalar))
        }
    }
}

public struct MouseEvent: Equatable, Sendable {
    public enum Kind: Sendable { case click, doubleClick, wheelUp, wheelDown }
    public let kind: Kind
    /// Screen cell, from the top left (0, 0).
    public let row: Int
    public let column: Int

    public init(kind: Kind, row: Int, column: Int) {
        self.kind = kind
        self.row = row
        self.column = column
    }
}
