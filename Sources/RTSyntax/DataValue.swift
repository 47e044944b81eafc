// Values for `{{name}}` and sections (RT section 7): front matter `vars`, `--data FILE.json|.yaml`, `-D`.
// Scalars keep the text as written (`3.50` stays `3.50`); JSON is read as YAML so both share one path.

import Yams

public indirect enum DataValue: Sendable, Equatable {
    case text(String)
    case list([DataValue])
    /// Keys in document order.
    case map([DataEntry])
    case null

    /// Mustache truthiness: null, an empty text, `false` and an empty list hide a section.
    public var isTruthy: Bool {
        switch self {
        case .null: return false
        case .text(let s): return !(s.isEmpty || s == "false")
        case .list(let items): return !items.isEmpty
        case .map: return true
        }
    }

    public subscript(key: String) -> DataValue? {
        if case .map(let entries) = self { return entries.last { $0.key == key }?.value }
        return nil
    }

    /// `self` with `other`'s keys added or replacing (maps only; anything else is replaced).
    public func merging(_ other: DataValue) -> DataValue {
        guard case .map(var entries) = self, case .map(let more) = other else { return other }
        for entry in more {
            if let k = entries.firstIndex(where: { $0.key == entry.key }) { entries[k] = entry } else { entries.append(entry) }
        }
        return .map(entries)
    }

    public static func from(_ yaml: YAMLValue) -> DataValue {
        switch yaml.kind {
        case .scalar(let s): return .text(s)
        case .null: return .null
        case .sequence(let items): return .list(items.map(from))
        case .mapping(let pairs): return .map(pairs.map { DataEntry(key: $0.key, value: from($0.value)) })
        }
    }

    /// Parses a `--data` file (JSON or YAML). Throws a message naming the line when it does not parse.
    public static func parse(_ bytes: [UInt8], file: String) -> Result<DataValue, Diagnostic> {
        let body = InputCheck.removingBOM(bytes)
        if let problem = InputCheck.firstProblem(body) {
            return .failure(.error(problem.message, at: InputCheck.location(of: problem.offset, in: body, file: file)))
        }
        do {
            guard let node = try YAMLCompose.compose(String(decoding: body, as: UTF8.self)) else { return .success(.map([])) }
            var budget = maxValues
            let value = convert(node, depth: 0, budget: &budget)
            guard budget > 0 else {
                // YAML aliases can name a few values millions of times; cutting them short would empty sections.
                return .failure(.error("data file '\(file)' is too large: more than \(maxValues) values (through aliases?); the limit is \(maxValues)",
                                       at: SourceLocation(file: file, line: 1, column: 1)))
            }
            return .success(value)
        } catch let error as YamlError {
            var at = SourceLocation(file: file, line: 1, column: 1)
            var message = "\(error)"
            switch error {
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
                 .composer(_, let problem, let mark, _):
                at = SourceLocation(file: file, line: mark.line, column: max(1, mark.column))
                message = problem
            default: break
            }
            return .failure(.error("data file is not valid JSON or YAML: \(message)", at: at))
        } catch {
            return .failure(.error("data file is not valid JSON or YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1)))
        }
    }

    /// Values a data file may hold, counting every use of an alias.
    public static let maxValues = 1_000_000

    private static func convert(_ node: Node, depth: Int, budget: inout Int) -> DataValue {
        budget -= 1
        guard depth < 100, budget > 0 else { return .null }
        switch node {
        case .scalar(let s):
            if node.null != nil && s.style == .plain { return .null }
            return .text(s.string)
        case .sequence(let seq):
            var items: [DataValue] = []
            for item in seq {
                guard budget > 0 else { break }
                items.append(convert(item, depth: depth + 1, budget: &budget))
            }
            return .list(items)
        case .mapping(let m):
            var entries: [DataEntry] = []
            for (key, value) in m {
                guard budget > 0 else { break }
                guard case .scalar(let k) = key else { continue }
                entries.append(DataEntry(key: k.string, value: convert(value, depth: depth + 1, budget: &budget)))
            }
            return .map(entries)
        }
    }
}

public struct DataEntry: Sendable, Equatable {
    public var key: String
    public var value: DataValue

    public init(key: String, value: DataValue) {
        self.key = key
        self.value = value
    }
}
