import CNcurses
import NotifyTUI

/// Turns what `wget_wch` returns into our `Key`s: curses key codes never leave this module.
enum KeyDecoding {
    /// A `KEY_CODE_YES` result.
    static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_BTAB: return .backTab
        case KEY_RESIZE: return .resize
        default:
            for number in 1...12 where code == cn_key_f(Int32(number)) {
                return .function(number)
            }
            return nil
        }
    }

    /// The `getmouse` bits we ask for and decode.
    static let clicked = cn_button1_clicked()
    static let doubleClicked = cn_button1_double_clicked()
    static let pressed = cn_button1_pressed()
    static let wheelUp = cn_button4_pressed()
    static let wheelDown = cn_button5_pressed()
    /// Every bit above: the `mousemask` notifytop sets.
    static let mask = clicked | doubleClicked | pressed | wheelUp | wheelDown

    /// A `getmouse` report: button 1 clicks (a press counts as a click, for terminals whose
    /// release arrives too late to merge) and the wheel (buttons 4 and 5).
    static func mouse(_ state: mmask_t, x: Int32, y: Int32) -> Key? {
        let kind: MouseEvent.Kind
        if state & doubleClicked != 0 {
            kind = .doubleClick
        } else if state & (clicked | pressed) != 0 {
            kind = .click
        } else if state & wheelUp != 0 {
            kind = .wheelUp
        } else if state & wheelDown != 0 {
            kind = .wheelDown
        } else {
            return nil
        }
        return .mouse(MouseEvent(kind, x: Int(x), y: Int(y)))
    }

    /// An `OK` result: a character, or a control code.
    static func character(_ value: UInt32) -> Key? {
        switch value {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(value + 96)!))
        case 0..<32: return nil  // Unknown controls are never treated as commands (script's ^D).
        default:
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return .character(Character(scalar))
        }
    }
}
