// The lines a block parser works on: a window into a shared array, so a div's content is passed to the
// nested parse without copying (n nested divs would otherwise copy their lines n times).

struct Lines: RandomAccessCollection {
    private let base: [LineView]
    private let offset: Int
    let count: Int

    init(_ lines: [LineView]) {
        base = lines
        offset = 0
        count = lines.count
    }

    private init(base: [LineView], offset: Int, count: Int) {
        self.base = base
        self.offset = offset
        self.count = count
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }
    subscript(i: Int) -> LineView { base[offset + i] }

    /// Lines `from..<to` of this window, renumbered from 0.
    func window(_ from: Int, _ to: Int) -> Lines {
        Lines(base: base, offset: offset + from, count: Swift.max(0, to - from))
    }
}
