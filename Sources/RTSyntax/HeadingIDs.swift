// Second pass over the finished tree: headings without an explicit `#id` get the slug of their text,
// made unique against every id already taken (`x`, `x-2`, `x-3`), in document order.

struct HeadingIDs {
    var used: Set<String>
    var counters: [String: Int] = [:]

    init(used: Set<String>) { self.used = used }

    mutating func assign(_ blocks: inout [Block]) {
        for k in blocks.indices { assign(&blocks[k]) }
    }

    private mutating func assign(_ block: inout Block) {
        switch block.kind {
        case .heading(let level, let content, let id) where id.isEmpty:
            block.kind = .heading(level: level, content: content, id: unique(RTParser.slug(plainText(content))))
        case .list(var list):
            for k in list.items.indices { assign(&list.items[k].blocks) }
            block.kind = .list(list)
        case .blockQuote(var inner):
            assign(&inner)
            block.kind = .blockQuote(inner)
        case .div(var inner):
            assign(&inner)
            block.kind = .div(inner)
        case .footnoteDefinition(let label, var inner):
            assign(&inner)
            block.kind = .footnoteDefinition(label: label, blocks: inner)
        default:
            break
        }
    }

    private mutating func unique(_ slug: String) -> String {
        let base = slug.isEmpty ? "section" : slug
        var id = base
        if used.contains(base) {
            var n = max(2, counters[base] ?? 2)
            while used.contains("\(base)-\(n)") { n += 1 }
            counters[base] = n + 1
            id = "\(base)-\(n)"
        }
        used.insert(id)
        return id
    }
}
