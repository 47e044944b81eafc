// Finding templates (`--template NAME|PATH`, front matter `template:`). Search order:
//   1. a path (contains `/` or ends in `.rt`), relative to the document's folder (the cwd for stdin);
//   2. NAME.rt in each folder of $TYPESET_TEMPLATES (colon-separated);
//   3. NAME.rt in `templates/` next to the executable, then `../share/typeset/templates/`;
//   4. the built-in templates compiled into the binary (Templates/*.rt, see BuiltinTemplates.swift).

import Foundation

public enum TemplateLibrary {
    public struct Found: Sendable {
        /// The file read, or `<template NAME>` for a built-in (used in diagnostics).
        public var file: String
        public var bytes: [UInt8]
    }

    public static func find(_ reference: String, relativeTo document: String,
                            environment: [String: String] = ProcessInfo.processInfo.environment) -> Found? {
        if reference.contains("/") || reference.hasSuffix(".rt") {
            let folder = document == "<stdin>" ? "" : (document as NSString).deletingLastPathComponent
            let path = reference.hasPrefix("/") || folder.isEmpty ? reference : folder + "/" + reference
            return read(path)
        }
        for folder in searchFolders(environment: environment) {
            if let found = read(folder + "/" + reference + ".rt") { return found }
        }
        if let text = BuiltinTemplates.all[reference] {
            return Found(file: "<template \(reference)>", bytes: Array(text.utf8))
        }
        return nil
    }

    /// Folders searched before the built-ins, in order.
    public static func searchFolders(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var folders = (environment["TYPESET_TEMPLATES"] ?? "").split(separator: ":").map(String.init)
        let executable = ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]) as NSString
        let bin = executable.deletingLastPathComponent
        folders.append(bin + "/templates")
        folders.append(((bin as NSString).deletingLastPathComponent as NSString).appendingPathComponent("share/typeset/templates"))
        return folders
    }

    /// Every template name available, with where it comes from (first match in the search order wins).
    public static func list(environment: [String: String] = ProcessInfo.processInfo.environment) -> [(name: String, origin: String)] {
        var seen: [String: String] = [:]
        var order: [String] = []
        for folder in searchFolders(environment: environment) {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
            for file in names where file.hasSuffix(".rt") {
                let name = String(file.dropLast(3))
                if seen[name] == nil { seen[name] = folder + "/" + file; order.append(name) }
            }
        }
        for name in BuiltinTemplates.all.keys.sorted() where seen[name] == nil {
            seen[name] = "built-in"
            order.append(name)
        }
        return order.sorted().map { ($0, seen[$0]!) }
    }

    /// A starter document for `typeset new NAME FILE`: names the template, copies its `vars` to fill in.
    public static func starter(for name: String, template: Found) -> String {
        let text = String(decoding: template.bytes, as: UTF8.self)
        var vars: [Substring] = []
        var inVars = false
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.first == "---" { lines.removeFirst() }
        for line in lines {
            if line == "---" { break }
            if line.hasPrefix("vars:") { inVars = true; vars.append(line); continue }
            if inVars {
                if line.hasPrefix(" ") || line.isEmpty { vars.append(line) } else { inVars = false }
            }
        }
        let marker = starterBodies[name] ?? "# Introduction\n\nWrite your text here.\n"
        return "---\ntemplate: \(name)\ntitle: Untitled\nauthor: Your Name\n"
            + (vars.isEmpty ? "" : vars.joined(separator: "\n") + "\n")
            + "---\n\n" + marker
    }

    static let starterBodies: [String: String] = [
        "report": "# Summary\n\nWhat this report found.\n\n# Details\n\n- first point\n- second point\n",
        "article": "# Introduction\n\nThe question and why it matters.\n\n# Method\n\nHow it was studied.\n",
        "letter": "Thank you for your letter of last week.\n\nKind regards,\n",
        "newsletter": "# Lead story\n\nThe news of the month.\n\n# In brief\n\n- one item\n- another\n",
        "invoice": "| Item | Qty | Amount |\n|:--|--:|-.-|\n| Consulting | 3 | 1200.00 |\n| Travel | 1 | 85.5 |\n",
    ]

    /// Bounded like every input: a template that is a directory, a device or over 8 MB is not found.
    private static func read(_ path: String) -> Found? {
        guard case .success(let bytes) = InputReader.contents(ofFile: path) else { return nil }
        return Found(file: path, bytes: bytes)
    }
}
