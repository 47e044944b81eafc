// `@chart TYPE data=LIST x=FIELD y=FIELD[,FIELD...] [title= width= height= stack= colors= caption=] [#id]`
// (RT section 4). The parser reads the list from the variables (front matter `vars`, `--data`, `-D`), checks
// every item, and hands on an image block whose image carries the table: a chart is a figure like an image.

/// The table a chart draws: one label per item, one number per item and series.
public struct ChartTable: Hashable, Sendable {
    public var categories: [String]
    /// Series name (the `y` field) and its values, one per category.
    public var series: [(name: String, values: [Double])] {
        zip(seriesNames, seriesValues).map { ($0, $1) }
    }
    public var seriesNames: [String]
    public var seriesValues: [[Double]]

    public init(categories: [String], seriesNames: [String], seriesValues: [[Double]]) {
        self.categories = categories
        self.seriesNames = seriesNames
        self.seriesValues = seriesValues
    }

    /// The accessible description: every value, by category.
    public func description(title: String?) -> String {
        var parts: [String] = []
        for (i, category) in categories.enumerated() {
            let values = seriesNames.indices.map { s in
                (seriesNames.count > 1 ? seriesNames[s] + " " : "") + ChartTable.format(seriesValues[s][i])
            }
            parts.append(category + ": " + values.joined(separator: ", "))
        }
        let head = title.map { $0 + ". " } ?? ""
        return head + "Chart of " + seriesNames.joined(separator: ", ") + ": " + parts.joined(separator: "; ")
    }

    /// A number as data usually writes it: no `.0` on whole numbers.
    public static func format(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }
}

/// What `@chart` says, options kept as written for lowering; `table` is nil after an error.
public struct ChartSource: Sendable {
    public var type: String
    public var options: [AttributePair]
    public var table: ChartTable?

    public init(type: String, options: [AttributePair], table: ChartTable?) {
        self.type = type
        self.options = options
        self.table = table
    }

    public static let types: Set<String> = ["bar", "hbar", "line"]
    public static let optionKeys: Set<String> = ["data", "x", "y", "title", "width", "height", "stack", "colors",
                                                 "caption", "alt"]
    /// Bounds: a chart of more items or series than this is unreadable long before it is slow.
    public static let maxItems = 2_000
    public static let maxSeries = 12
}

struct ChartDataError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

enum ChartData {
    /// Reads `list` and checks each item's fields; the first problem is the error.
    static func table(_ list: DataValue?, name: String, x: String, y: [String]) -> Result<ChartTable, ChartDataError> {
        guard let list else {
            return .failure(ChartDataError("@chart data '\(name)' is not defined: define a list in front matter 'vars' or a --data file"))
        }
        guard case .list(let items) = list else { return .failure(ChartDataError("@chart data '\(name)' is not a list")) }
        guard !items.isEmpty else { return .failure(ChartDataError("@chart data '\(name)' is an empty list: there is nothing to draw")) }
        guard items.count <= ChartSource.maxItems else {
            return .failure(ChartDataError("@chart data '\(name)' has \(items.count) items; a chart draws at most \(ChartSource.maxItems)"))
        }
        var categories: [String] = []
        var values = Array(repeating: [Double](), count: y.count)
        for (i, item) in items.enumerated() {
            let which = "item \(i + 1) of '\(name)'"
            guard case .map = item else { return .failure(ChartDataError("\(which) is not a map with fields '\(x)', '\(y.joined(separator: "', '"))'")) }
            guard case .text(let label)? = item[x] else { return .failure(ChartDataError("\(which) has no '\(x)' (the x field)")) }
            categories.append(label)
            for (s, field) in y.enumerated() {
                guard let value = item[field] else { return .failure(ChartDataError("\(which) has no number in '\(field)' (the field is missing)")) }
                guard case .text(let text) = value, let number = number(text) else {
                    return .failure(ChartDataError("\(which) has no number in '\(field)' (it is \(shown(value)))"))
                }
                values[s].append(number)
            }
        }
        return .success(ChartTable(categories: categories, seriesNames: y, seriesValues: values))
    }

    /// Beyond this a value has no place on a readable axis (and ranges stay finite).
    static let maxMagnitude = 1e15

    /// A decimal number as JSON/YAML write it (`12`, `-3.5`, `1e3`), at most 1e15 either way; nil for anything else.
    static func number(_ text: String) -> Double? {
        let t = text
        guard !t.isEmpty, t.utf8.allSatisfy({ $0 < 128 && ($0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
                || (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains($0)) }),
              let v = Double(t), v.isFinite, abs(v) <= maxMagnitude else { return nil }
        return v
    }

    static func shown(_ value: DataValue) -> String {
        switch value {
        case .text(let s): return "'\(s.count > 40 ? String(s.prefix(40)) + "..." : s)'"
        case .list: return "a list"
        case .map: return "a map"
        case .null: return "empty"
        }
    }

    /// `a.b.c` through maps.
    static func lookup(_ path: String, in data: DataValue) -> DataValue? {
        var value: DataValue? = data
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            value = value?[String(part)]
        }
        return value
    }
}

extension BlockParser {
    /// `@chart TYPE options`: an image block whose image carries the chart, or nothing after an error.
    mutating func chart(_ s: Int, _ e: Int, range: SourceRange, at: SourceLocation) -> Block? {
        var k = s
        while k < e && Byte.isLetter(text[k]) { k += 1 }
        let type = src.string(s, k)
        guard ChartSource.types.contains(type) else {
            let shown = type.isEmpty ? "" : " (not '\(type)')"
            ctx.diagnostics.append(.error("@chart needs a type: bar, hbar or line\(shown), as in '@chart bar data=tests x=name y=seconds'",
                                          at: s < e ? src.location(s) : at))
            return nil
        }
        let options = parseAttributes(k, e)
        for pair in options.pairs where !ChartSource.optionKeys.contains(pair.key) {
            ctx.diagnostics.append(.warning("unknown @chart option '\(pair.key)': use data, x, y, title, width, height, stack, colors, caption or alt; ignored",
                                            at: pair.keyRange.start))
        }
        if let style = options.styles.first {
            ctx.diagnostics.append(.warning("@chart takes key=value options and an #id, not styles; '.\(style.name)' ignored", at: style.range.start))
        }
        guard let data = options["data"], let x = options["x"], let y = options["y"] else {
            let missing = ["data", "x", "y"].filter { options[$0] == nil }.map { $0 + "=" }.joined(separator: ", ")
            ctx.diagnostics.append(.error("@chart needs \(missing): the list to draw, the field of each item that names it and the field(s) with its numbers",
                                          at: at))
            return nil
        }
        let fields = y.value.split(separator: ",").map { String($0).trimmingASCIISpaces() }.filter { !$0.isEmpty }
        guard !fields.isEmpty, fields.count <= ChartSource.maxSeries else {
            ctx.diagnostics.append(.error("@chart y= takes 1 to \(ChartSource.maxSeries) fields separated by commas", at: y.valueRange.start))
            return nil
        }
        let variables = ctx.variables.merging(ctx.options.expansion?.data ?? .map([]))
        let table: ChartTable
        switch ChartData.table(ChartData.lookup(data.value, in: variables), name: data.value, x: x.value, y: fields) {
        case .failure(let error):
            ctx.diagnostics.append(.error(error.message, at: at))
            return nil
        case .success(let t): table = t
        }
        let kept: Set<String> = ["width", "height", "caption", "alt"]
        let attributes = Attributes(styles: [], id: options.id, pairs: options.pairs.filter { kept.contains($0.key) })
        let alt = options["alt"]?.value ?? table.description(title: options["title"]?.value)
        var image = ImageReference(alt: alt, path: "", attributes: attributes, range: range)
        image.chart = ChartSource(type: type, options: options.pairs, table: table)
        return Block(.imageBlock(image), range: range)
    }
}

extension String {
    func trimmingASCIISpaces() -> String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }
}
