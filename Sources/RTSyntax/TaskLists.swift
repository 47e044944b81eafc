// GitHub task list items (section 9): `[ ]`, `[x]` or `[X]` then white space at the start of an item's first
// line. The box is taken off the text; lowering sets ☐ / ☑ in place of the bullet.

extension BlockParser {
    /// When `line` (an item's first line, from its content start) opens with a task box: the box's state,
    /// and `line` now starts after the box and the white space that follows it.
    func taskBox(_ line: inout LineView) -> TaskState? {
        let s = line.start
        guard line.end - s >= 4, text[s] == Byte.lbracket, text[s + 2] == Byte.rbracket,
              Byte.isSpaceOrTab(text[s + 3]) else { return nil }
        let state: TaskState
        switch text[s + 1] {
        case Byte.space: state = .open
        case 0x78, 0x58: state = .done   // x X
        default: return nil
        }
        var k = s + 3
        while k < line.end && Byte.isSpaceOrTab(text[k]) { k += 1 }
        guard k < line.end else { return nil }   // a box with no text after it stays text
        line.start = k
        return state
    }
}
