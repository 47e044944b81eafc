// Runs the built `typeset` binary and reads its PDFs back with poppler/qpdf, the way a reader's tools would.

import Foundation
import XCTest

struct RunResult {
    var status: Int32
    var stdout: Data
    var stderr: String
}

enum Harness {
    /// The `typeset` executable built next to this test bundle (override with TYPESET_BIN).
    static var binary: String {
        if let explicit = ProcessInfo.processInfo.environment["TYPESET_BIN"] { return explicit }
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: me).deletingLastPathComponent()
        // On Linux the test bundle is `<bin>/typesetPackageTests.xctest`; be robust to nesting.
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("typeset").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return "typeset"
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil,
                    environment: [String: String] = [:], cwd: String? = nil) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
        process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "SOURCE_DATE_EPOCH")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let cwd { process.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        let outPipe = Pipe(), errPipe = Pipe(), inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        try process.run()
        // Read both pipes concurrently so a chatty child can't deadlock on a full pipe.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = errPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        if let stdin { inPipe.fileHandleForWriting.write(stdin) }
        try? inPipe.fileHandleForWriting.close()
        let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return RunResult(status: process.terminationStatus, stdout: outData,
                         stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs typeset; every PDF a successful run wrote must pass `qpdf --check` (section 11: no damaged PDF).
    static func typeset(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
                        cwd: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        let result = try run(binary, arguments, stdin: stdin, environment: environment, cwd: cwd)
        if result.status == 0, let pdf = writtenPDF(arguments, cwd: cwd) {
            PDF.assertValid(pdf, file: file, line: line)
        }
        return result
    }

    /// The PDF a typeset command line writes: `-o X.pdf`, or the input with `.pdf` when no `-o` is given.
    static func writtenPDF(_ arguments: [String], cwd: String?) -> String? {
        var output: String?
        var input: String?
        var index = 0
        while index < arguments.count {
            let arg = arguments[index]
            if arg == "-o" || arg == "--output", index + 1 < arguments.count {
                output = arguments[index + 1]; index += 2; continue
            }
            if arg.hasPrefix("--output=") { output = String(arg.dropFirst("--output=".count)) }
            else if !arg.hasPrefix("-"), input == nil, arg.hasSuffix(".rt") || arg.hasSuffix(".md") { input = arg }
            index += 1
        }
        if ["measure", "new", "--list-templates"].contains(where: arguments.contains) { return nil }
        if arguments.contains("--watch") { return nil }
        var path = output ?? input.map { URL(fileURLWithPath: $0).deletingPathExtension().path + ".pdf" }
        guard let found = path, found.hasSuffix(".pdf") else { return nil }
        if !found.hasPrefix("/"), let cwd { path = cwd + "/" + found }
        guard let pdf = path, FileManager.default.fileExists(atPath: pdf) else { return nil }
        return pdf
    }

    /// A fresh folder for one test, inside this process's `scratchRoot`.
    static func scratch(_ name: String = #function) throws -> String {
        let base = URL(fileURLWithPath: scratchRoot)
            .appendingPathComponent("\(name.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        return base.path
    }

    static func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    /// Typesets `source` in a scratch folder and returns the PDF path (asserting success).
    static func typesetSource(_ source: String, name: String = #function, environment: [String: String] = [:],
                              file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let dir = try scratch(name)
        let input = dir + "/doc.rt"
        let output = dir + "/doc.pdf"
        try write(source, to: input)
        let result = try typeset([input, "-o", output], environment: environment)
        XCTAssertEqual(result.status, 0, "typeset failed: \(result.stderr)", file: file, line: line)
        return output
    }
}

/// Reading a PDF back.
enum PDF {
    static func tool(_ name: String, _ arguments: [String]) throws -> String {
        let result = try Harness.run(name, arguments)
        XCTAssertEqual(result.status, 0, "\(name) \(arguments) failed: \(result.stderr)")
        return String(decoding: result.stdout, as: UTF8.self)
    }

    /// Every glyph drawn (character, x, y), from `mutool trace`, whatever the text layer says.
    static func glyphs(_ pdf: String) throws -> [(String, Double, Double)] {
        let trace = try tool("mutool", ["trace", pdf])
        func attribute(_ name: String, _ tag: Substring) -> String? {
            guard let r = tag.range(of: " \(name)=\"") else { return nil }
            return String(tag[r.upperBound...].prefix { $0 != "\"" })
        }
        return trace.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: "<g ") else { return nil }
            let tag = line[start.lowerBound...]
            guard let x = attribute("x", tag).flatMap(Double.init), let y = attribute("y", tag).flatMap(Double.init)
            else { return nil }
            return (attribute("unicode", tag) ?? "", x, y)
        }
    }

    static func text(_ pdf: String, layout: Bool = false, page: Int? = nil) throws -> String {
        var args = layout ? ["-layout"] : []
        if let page { args += ["-f", "\(page)", "-l", "\(page)"] }
        return try tool("pdftotext", args + [pdf, "-"])
    }

    static func info(_ pdf: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for line in try tool("pdfinfo", [pdf]).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            out[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return out
    }

    /// `qpdf --check` finds no damage and no warning (one helper for every test that writes a PDF).
    static func assertValid(_ pdf: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let result = try? Harness.run("qpdf", ["--check", pdf]) else {
            XCTFail("qpdf did not run on \(pdf)", file: file, line: line); return
        }
        let out = String(decoding: result.stdout, as: UTF8.self)
        XCTAssertEqual(result.status, 0, "qpdf --check \(pdf): \(out)\(result.stderr)", file: file, line: line)
        XCTAssertFalse(out.contains("WARNING"), "qpdf --check \(pdf): \(out)", file: file, line: line)
    }

    static func pageCount(_ pdf: String) throws -> Int { Int(try info(pdf)["Pages"] ?? "") ?? -1 }

    /// (font name, embedded) per `pdffonts` row.
    static func fonts(_ pdf: String) throws -> [(name: String, embedded: Bool)] {
        let rows = try tool("pdffonts", [pdf]).split(separator: "\n").dropFirst(2)
        return rows.map { row in
            let cols = row.split(separator: " ", omittingEmptySubsequences: true)
            // name type encoding emb sub uni object ID: "emb" is the 4th column from the right-hand "yes/no" group.
            let flags = cols.filter { $0 == "yes" || $0 == "no" }
            return (String(cols.first ?? ""), flags.first == "yes")
        }
    }

    /// The PDF's objects as readable text (uncompressed), for annotations, outlines, destinations.
    static func objects(_ pdf: String) throws -> String {
        let out = pdf + ".qdf"
        let result = try Harness.run("qpdf", ["--qdf", "--object-streams=disable", pdf, out])
        // An unreadable file must fail here: an empty string would pass every "does not contain" check.
        let text = (try? String(contentsOfFile: out, encoding: .isoLatin1)) ?? ""
        XCTAssertTrue(text.hasPrefix("%PDF-"), "qpdf --qdf \(pdf) gave nothing to read: \(result.stderr)")
        return text
    }

    /// Every word with its box (points, origin top-left), from `pdftotext -bbox`.
    struct Word { var text: String; var page: Int; var xMin, yMin, xMax, yMax: Double }

    static func words(_ pdf: String) throws -> [Word] {
        let html = try tool("pdftotext", ["-bbox", pdf, "-"])
        var words: [Word] = []
        var page = 0
        for line in html.split(separator: "\n") {
            if line.contains("<page ") { page += 1; continue }
            guard line.contains("<word ") else { continue }
            func attr(_ name: String) -> Double {
                guard let r = line.range(of: "\(name)=\"") else { return .nan }
                let rest = line[r.upperBound...]
                return Double(rest[..<(rest.firstIndex(of: "\"") ?? rest.endIndex)]) ?? .nan
            }
            guard let start = line.firstIndex(of: ">"), let end = line.range(of: "</word>") else { continue }
            let text = String(line[line.index(after: start)..<end.lowerBound])
                .replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            words.append(Word(text: text, page: page, xMin: attr("xMin"), yMin: attr("yMin"),
                              xMax: attr("xMax"), yMax: attr("yMax")))
        }
        return words
    }
}

/// The folder that holds every scratch folder of this test process; removed when the process exits. One folder per
/// test left in the temporary directory added up to 27,000 folders over a few hundred runs.
private let scratchRoot: String = {
    let root = NSTemporaryDirectory() + "/typeset-e2e-\(getpid())-\(UUID().uuidString.prefix(8))"
    try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: scratchRoot) }
    return root
}()
