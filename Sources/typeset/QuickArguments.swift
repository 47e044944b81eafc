// The usual command line (`typeset IN.rt -o OUT.pdf --quiet` and the like) without ArgumentParser's parse,
// which reflects over every option and looks up protocol conformances in a binary with Foundation linked
// in: some 10M instructions, a tenth of a one-page document's run (issue 14, start-up). Anything this does
// not recognise plainly (help, version, joined short flags, `--`, a repeated single option, a value that
// looks like an option, a bad number) and any validation error goes to ArgumentParser, which reports it.

extension Typeset {
    private static let valueOptions: [String: String] = [
        "-o": "output", "--output": "output", "-D": "define", "--data": "data", "--template": "template",
        "--deps": "deps", "--root": "root", "--pdf-standard": "pdfStandard", "--jobs": "jobs",
    ]
    private static let flagOptions: [String: String] = [
        "--allow-undefined": "allowUndefined", "--list-templates": "listTemplates", "-q": "quiet",
        "--quiet": "quiet", "-v": "verbose", "--verbose": "verbose", "--watch": "watch",
    ]
    private static let repeatable: Set<String> = ["define", "data", "pdfStandard"]

    /// The command for `arguments` when they are plain, else nil (then ArgumentParser parses them).
    static func quickParse(_ arguments: [String]) -> Typeset? {
        var input: String? = nil
        var values: [String: [String]] = [:]
        var flags = Set<String>()
        var k = 0
        while k < arguments.count {
            let argument = arguments[k]
            k += 1
            if argument == "-" || !argument.hasPrefix("-") {
                guard input == nil, !argument.isEmpty else { return nil }
                input = argument
                continue
            }
            if let flag = flagOptions[argument] {
                guard flags.insert(flag).inserted else { return nil }
                continue
            }
            // `--name=value` for long options, `--name value` and `-o value` for all.
            var name = argument, value: String? = nil
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard let key = valueOptions[name] else { return nil }
            if value == nil {
                guard k < arguments.count else { return nil }
                value = arguments[k]
                k += 1
            }
            guard let value, !value.isEmpty, value == "-" || !value.hasPrefix("-") else { return nil }
            guard repeatable.contains(key) || values[key] == nil else { return nil }
            values[key, default: []].append(value)
        }
        var jobs: Int? = nil
        if let given = values["jobs"]?.first {
            guard let n = Int(given) else { return nil }
            jobs = n
        }
        // Every property is set: ArgumentParser's wrappers trap when one is read that was neither set nor parsed.
        var command = Typeset()
        command.input = input
        command.output = values["output"]?.first
        command.define = values["define"] ?? []
        command.data = values["data"] ?? []
        command.template = values["template"]?.first
        command.deps = values["deps"]?.first
        command.root = values["root"]?.first
        command.allowUndefined = flags.contains("allowUndefined")
        command.pdfStandard = values["pdfStandard"] ?? []
        command.listTemplates = flags.contains("listTemplates")
        command.quiet = flags.contains("quiet")
        command.verbose = flags.contains("verbose")
        command.watch = flags.contains("watch")
        command.jobs = jobs
        do {
            try command.validate()
        } catch {
            return nil
        }
        return command
    }
}
