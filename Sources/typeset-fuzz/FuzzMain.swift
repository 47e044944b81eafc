// Coverage-guided fuzzing (libFuzzer) of the parser and of the whole pipeline. `make fuzz` builds this with
// `-sanitize=fuzzer -DTYPESET_LIBFUZZER` (see scripts/fuzz.sh); a plain build runs each file or folder
// given as an argument once, so a saved crash replays without the fuzzer: `typeset-fuzz crash-1234`.
// TYPESET_FUZZ_TARGET picks what one input goes through: `parser` (parse with expansion, then lowering;
// no Cairo) or `pipeline` (to a PDF, which `qpdf --check` must accept). A broken invariant traps, so
// libFuzzer keeps the input; time and memory bounds are libFuzzer's -timeout and -rss_limit_mb.

import Foundation

@main
enum FuzzMain {
    static func main() {
        let target = FuzzTarget(name: ProcessInfo.processInfo.environment["TYPESET_FUZZ_TARGET"] ?? "parser")
        FuzzTarget.current = target
        #if TYPESET_LIBFUZZER
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runLibFuzzer(&argc, &argv) { data, size in
            FuzzTarget.current?.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
            return 0
        })
        #else
        exit(replay(CommandLine.arguments.dropFirst(), target) ? 0 : 1)
        #endif
    }

    /// Runs every file (or every file in every folder) once; false when there was nothing to run.
    static func replay(_ paths: ArraySlice<String>, _ target: FuzzTarget) -> Bool {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                files += names.sorted().map { path + "/" + $0 }
            } else {
                files.append(path)
            }
        }
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            print("typeset-fuzz: \(file)")
            target.run([UInt8](data))
        }
        return !files.isEmpty
    }
}

#if TYPESET_LIBFUZZER
typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// libFuzzer's driver (compiler-rt, LLVM 11 and later): runs `callback` on generated inputs.
@_silgen_name("LLVMFuzzerRunDriver")
func runLibFuzzer(_ argc: UnsafeMutablePointer<CInt>,
                  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                  _ callback: FuzzCallback) -> CInt
#endif
