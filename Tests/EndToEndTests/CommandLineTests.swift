// The command-line contract: exit codes, diagnostics format, atomic output, stdin/stdout.

import Foundation
import XCTest

final class CommandLineTests: XCTestCase {
    func testHelpAndVersionExitZero() throws {
        let help = try Harness.typeset(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(String(decoding: help.stdout, as: UTF8.self).contains("-o, --output"))
        let version = try Harness.typeset(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(String(decoding: version.stdout, as: UTF8.self).hasPrefix("typeset "))
    }

    func testUsageErrorsExitTwo() throws {
        XCTAssertEqual(try Harness.typeset([]).status, 2, "no input")
        XCTAssertEqual(try Harness.typeset(["--no-such-flag", "x.rt"]).status, 2, "unknown flag")
        XCTAssertEqual(try Harness.typeset(["x.rt", "-D", "novalue"]).status, 2, "bad -D")
    }

    func testDefaultOutputNameIsInputWithPdf() throws {
        let dir = try Harness.scratch()
        try Harness.write("Hello.\n", to: dir + "/note.rt")
        let result = try Harness.typeset(["note.rt"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/note.pdf"))
    }

    func testStdinToStdout() throws {
        let result = try Harness.typeset(["-", "-o", "-"], stdin: Data("# Piped\n\nFrom standard input.\n".utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.starts(with: Data("%PDF-".utf8)))
        let dir = try Harness.scratch()
        try result.stdout.write(to: URL(fileURLWithPath: dir + "/piped.pdf"))
        XCTAssertTrue(try PDF.text(dir + "/piped.pdf").contains("From standard input."))
    }

    func testStdinDiagnosticsNameStdin() throws {
        let result = try Harness.typeset(["-", "-o", "-"], stdin: Data("::: note\nnever closed\n".utf8))
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("<stdin>:1:1: error:"), result.stderr)
        XCTAssertTrue(result.stdout.isEmpty, "no PDF on stdout after an error")
    }

    /// Errors stop the build: exit 1, `path:line:col: error:`, no output file (and a stale one is removed).
    func testDocumentErrorsExitOneAndLeaveNoFile() throws {
        let cases: [(String, String)] = [
            ("intro\n\n::: note\nbody\n", "doc.rt:3:1: error:"),                  // unclosed div
            ("---\ntitle: [unclosed\n---\nText\n", "doc.rt:2:"),                 // YAML that does not parse
            ("Text ![logo](missing.png) here.\n", "doc.rt:1:6: error:"),         // missing image
            ("Hello {{nobody}}.\n", "doc.rt:1:7: error:"),                       // undefined variable
            ("@include nowhere.rt\n", "doc.rt:1:1: error:"),                     // missing include
        ]
        for (source, expected) in cases {
            let dir = try Harness.scratch()
            try Harness.write(source, to: dir + "/doc.rt")
            try Data("%PDF-stale".utf8).write(to: URL(fileURLWithPath: dir + "/doc.pdf"))
            let result = try Harness.typeset(["doc.rt", "-o", "doc.pdf"], cwd: dir)
            XCTAssertEqual(result.status, 1, "for \(source.debugDescription): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(expected), "expected \(expected) in: \(result.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/doc.pdf"), "stale output left for \(source.debugDescription)")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".tmp") }
            XCTAssertEqual(leftovers, [], "temporary files left behind")
        }
    }

    func testMissingInputFileExitsOne() throws {
        let dir = try Harness.scratch()
        let result = try Harness.typeset(["absent.rt"], cwd: dir)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("absent.rt"), result.stderr)
    }

    func testInvalidUTF8IsLocatedError() throws {
        let dir = try Harness.scratch()
        var bytes = Array("Fine line\nbad \u{00}".utf8)
        bytes.removeLast()
        bytes += [0xC3, 0x28, 0x0A]
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/doc.rt"))
        let result = try Harness.typeset(["doc.rt"], cwd: dir)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("doc.rt:2:5: error:"), result.stderr)
    }

    func testWarningsDoNotFailAndNameTheKey() throws {
        let dir = try Harness.scratch()
        try Harness.write("---\npage: A9\n---\n[text]{frobnicate=3}\n", to: dir + "/doc.rt")
        let result = try Harness.typeset(["doc.rt"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("doc.rt:2:7: warning:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("doc.rt:4:8: warning:"), result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/doc.pdf"))
        let quiet = try Harness.typeset(["--quiet", "doc.rt"], cwd: dir)
        XCTAssertEqual(quiet.stderr, "")
    }

    func testDefineVariable() throws {
        let dir = try Harness.scratch()
        try Harness.write("---\nvars:\n  who: front\n---\nHello {{who}}.\n", to: dir + "/doc.rt")
        XCTAssertEqual(try Harness.typeset(["doc.rt"], cwd: dir).status, 0)
        XCTAssertTrue(try PDF.text(dir + "/doc.pdf").contains("Hello front."))
        XCTAssertEqual(try Harness.typeset(["doc.rt", "-D", "who=command line"], cwd: dir).status, 0)
        XCTAssertTrue(try PDF.text(dir + "/doc.pdf").contains("Hello command line."))
    }

    func testSameInputSameBytes() throws {
        let dir = try Harness.scratch()
        try Harness.write("---\ntitle: Twice\nauthor: Someone\n---\n# One\n\nSame **bytes** [link](https://example.org).\n", to: dir + "/doc.rt")
        let env = ["SOURCE_DATE_EPOCH": "1700000000"]
        XCTAssertEqual(try Harness.typeset(["doc.rt", "-o", "a.pdf"], environment: env, cwd: dir).status, 0)
        Thread.sleep(forTimeInterval: 1.1)
        XCTAssertEqual(try Harness.typeset(["doc.rt", "-o", "b.pdf"], environment: env, cwd: dir).status, 0)
        let a = try Data(contentsOf: URL(fileURLWithPath: dir + "/a.pdf"))
        let b = try Data(contentsOf: URL(fileURLWithPath: dir + "/b.pdf"))
        XCTAssertEqual(a, b, "SOURCE_DATE_EPOCH set: output must be byte-identical")
        XCTAssertTrue(try PDF.info(dir + "/a.pdf")["CreationDate"]?.contains("2023") ?? false)
    }
}

final class DefaultOutputNameTests: XCTestCase {
    /// "default output: IN with .pdf", whatever IN's extension.
    func testAnyExtensionBecomesPdf() throws {
        let dir = try Harness.scratch()
        for (input, output) in [("c.md", "c.pdf"), ("noext", "noext.pdf"), ("B.RT", "B.pdf")] {
            try Harness.write("Hello.\n", to: dir + "/" + input)
            let result = try Harness.typeset([input], cwd: dir)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/" + output), "\(input) should give \(output)")
        }
    }
}
