// Issue 5 from the outside: variables and data, templates, --deps, new, measure, SVG/PNG output.

import Foundation
import XCTest

final class BuildCitizenTests: XCTestCase {
    func testVariablePrecedenceFrontMatterDataDefine() throws {
        let dir = try Harness.scratch()
        try Harness.write("---\nvars:\n  a: fa\n  b: fb\n  c: fc\n---\nValues {{a}} {{b}} {{c}}.\n", to: dir + "/doc.rt")
        try Harness.write(#"{"b": "db", "c": "dc"}"#, to: dir + "/data.json")
        let result = try Harness.typeset(["doc.rt", "--data", "data.json", "-D", "c=cli"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(try PDF.text(dir + "/doc.pdf").contains("Values fa db cli."))
    }

    func testSectionsInvertedSectionsAndLiteralMarkupFromYAMLData() throws {
        let dir = try Harness.scratch()
        try Harness.write("tests:\n  - name: \"**parse**\"\n    ok: yes\n  - name: \"[lay](out)\"\n    ok: \"\"\nskipped: []\n", to: dir + "/d.yaml")
        try Harness.write("{{#tests}}\n- {{name}} {{#ok}}passed{{/ok}}{{^ok}}FAILED{{/ok}}\n{{/tests}}\n\n{{^skipped}}No skips.{{/skipped}}\n",
                          to: dir + "/doc.rt")
        let result = try Harness.typeset(["doc.rt", "--data", "d.yaml"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try PDF.text(dir + "/doc.pdf")
        XCTAssertTrue(text.contains("**parse** passed"), text)
        XCTAssertTrue(text.contains("[lay](out) FAILED"), text)
        XCTAssertTrue(text.contains("No skips."), text)
    }

    func testUndefinedVariableAfterSectionAndInIncludeNameTheRightPlace() throws {
        let dir = try Harness.scratch()
        try FileManager.default.createDirectory(atPath: dir + "/parts", withIntermediateDirectories: true)
        try Harness.write("Fine.\n\nAlso {{missing}} here.\n", to: dir + "/parts/one.rt")
        try Harness.write("{{#xs}}\nrow {{.}}\n\n{{/xs}}\nThen {{nope}}.\n\n@include parts/one.rt\n", to: dir + "/doc.rt")
        let result = try Harness.typeset(["doc.rt", "-D", "xs=1"], cwd: dir)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("doc.rt:5:6: error: undefined variable 'nope'"), result.stderr)
        XCTAssertTrue(result.stderr.contains("parts/one.rt:3:6: error: undefined variable 'missing'"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/doc.pdf"))
    }

    func testBuiltinTemplateFromAnotherFolderAndFrontMatterOverride() throws {
        let dir = try Harness.scratch()
        try Harness.write("---\ntemplate: report\ntitle: Quarterly\npage: A5\n---\n# Results\n\nAll good.\n", to: dir + "/q.rt")
        let result = try Harness.typeset([dir + "/q.rt", "-o", dir + "/q.pdf"], cwd: "/")
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try PDF.text(dir + "/q.pdf")
        XCTAssertTrue(text.contains("Quarterly") && text.contains("All good."), text)
        XCTAssertTrue(try PDF.info(dir + "/q.pdf")["Page size"]?.hasPrefix("419.") ?? false, "A5 from the document beats the template's A4")
    }

    func testTemplatePathOnCommandLineAndMissingTemplate() throws {
        let dir = try Harness.scratch()
        try Harness.write("---\nvars:\n  org: ACME\n---\nTop {{org}}\n\n{{content}}\n\nBottom\n", to: dir + "/mine.rt")
        try Harness.write("Middle.\n", to: dir + "/doc.rt")
        let result = try Harness.typeset(["doc.rt", "--template", "mine.rt"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try PDF.text(dir + "/doc.pdf")
        XCTAssertTrue(text.contains("Top ACME") && text.contains("Middle.") && text.contains("Bottom"), text)
        let missing = try Harness.typeset(["doc.rt", "--template", "nosuch"], cwd: dir)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("template 'nosuch' not found"), missing.stderr)
    }

    func testEveryBuiltinTemplateRendersWithoutErrors() throws {
        let list = try Harness.typeset(["--list-templates"])
        let names = String(decoding: list.stdout, as: UTF8.self).split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        XCTAssertEqual(Set(names), ["article", "invoice", "letter", "newsletter", "report"])
        let dir = try Harness.scratch()
        for name in names {
            let new = try Harness.typeset(["new", name, "\(name).rt"], cwd: dir)
            XCTAssertEqual(new.status, 0, new.stderr)
            let build = try Harness.typeset(["\(name).rt"], cwd: dir)
            XCTAssertEqual(build.status, 0, "\(name): \(build.stderr)")
            XCTAssertEqual(build.stderr, "", "\(name): a starter document typesets with no warnings")
            XCTAssertGreaterThan(try PDF.pageCount(dir + "/\(name).pdf"), 0)
        }
        XCTAssertEqual(try Harness.typeset(["new", "report", "report.rt"], cwd: dir).status, 1, "never overwrites")
    }

    func testBuiltinTemplatesMatchTemplatesFolder() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let generated = try String(contentsOf: root.appendingPathComponent("Sources/TypesetKit/BuiltinTemplates.swift"), encoding: .utf8)
        let folder = root.appendingPathComponent("Templates")
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".rt") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let name = String(file.dropLast(3))
            XCTAssertTrue(generated.contains("\"\(name)\": #\"\"\"\n" + text + "\n\"\"\"#"),
                          "Templates/\(file) changed: run `make templates` to regenerate BuiltinTemplates.swift")
        }
    }

    func testDepsFileListsEveryInput() throws {
        let dir = try Harness.scratch()
        try Harness.write("Part.\n", to: dir + "/part one.rt")
        try Harness.write("---\nvars:\n  t: x\n---\n@include part one.rt\n\n{{n}}\n", to: dir + "/doc.rt")
        try Harness.write("---\n---\n{{content}}\n", to: dir + "/tpl.rt")
        try Harness.write("n: 1\n", to: dir + "/d.yaml")
        let result = try Harness.typeset(["doc.rt", "-o", "out/doc.pdf", "--deps", "doc.d", "--data", "d.yaml", "--template", "tpl.rt"],
                                         cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        let rule = try String(contentsOfFile: dir + "/doc.d", encoding: .utf8)
        XCTAssertTrue(rule.hasPrefix("out/doc.pdf:"), rule)
        for input in ["doc.rt", "part\\ one.rt", "tpl.rt", "d.yaml"] { XCTAssertTrue(rule.contains(" " + input), "\(input) in \(rule)") }
        XCTAssertTrue(rule.contains("\nd.yaml:\n"), "phony rules for deleted inputs")
    }

    func testMeasurePrintsJSON() throws {
        let dir = try Harness.scratch()
        try Harness.write(String(repeating: "word ", count: 300) + "\n", to: dir + "/m.rt")
        let narrow = try Harness.typeset(["measure", "m.rt", "--width", "5cm"], cwd: dir)
        let wide = try Harness.typeset(["measure", "m.rt", "--width", "15cm"], cwd: dir)
        XCTAssertEqual(narrow.status, 0, narrow.stderr)
        let a = try JSONSerialization.jsonObject(with: narrow.stdout) as? [String: Double] ?? [:]
        let b = try JSONSerialization.jsonObject(with: wide.stdout) as? [String: Double] ?? [:]
        XCTAssertEqual(a["width"] ?? 0, 141.73, accuracy: 0.01)
        XCTAssertGreaterThan(a["lines"] ?? 0, 2 * (b["lines"] ?? 0))
        XCTAssertGreaterThan(a["height"] ?? 0, b["height"] ?? 0)
        XCTAssertEqual(b["pages"], 1)
        XCTAssertEqual(try Harness.typeset(["measure", "m.rt", "--width", "wide"], cwd: dir).status, 2)
    }

    func testPNGAndSVGPages() throws {
        let dir = try Harness.scratch()
        try Harness.write("One.\n\n@pagebreak\n\nTwo.\n", to: dir + "/p.rt")
        XCTAssertEqual(try Harness.typeset(["p.rt", "-o", "p.png"], cwd: dir).status, 0)
        XCTAssertEqual(try Harness.typeset(["p.rt", "-o", "p.svg"], cwd: dir).status, 0)
        for file in ["p-1.png", "p-2.png", "p-1.svg", "p-2.svg"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/" + file), file)
        }
        let png = try Data(contentsOf: URL(fileURLWithPath: dir + "/p-1.png"))
        XCTAssertTrue(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        XCTAssertTrue(try String(contentsOfFile: dir + "/p-2.svg", encoding: .utf8).contains("<svg"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/p-3.png"))
    }

    func testIdenticalInputsGiveIdenticalBytesAcrossFolders() throws {
        let a = try Harness.scratch("a"), b = try Harness.scratch("b")
        for dir in [a, b] {
            try Harness.write("---\ntemplate: report\ntitle: Same\n---\nText {{v}}.\n", to: dir + "/doc.rt")
            XCTAssertEqual(try Harness.typeset(["doc.rt", "-D", "v=1"], environment: ["SOURCE_DATE_EPOCH": "1700000000"], cwd: dir).status, 0)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: a + "/doc.pdf")), try Data(contentsOf: URL(fileURLWithPath: b + "/doc.pdf")))
    }
}
