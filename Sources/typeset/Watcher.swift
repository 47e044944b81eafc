// `--watch`: rebuild when any input's modification time changes. Polling (once a second) needs no
// platform API and sees every input the last build read: includes, template, data, images, fonts.

import Foundation
import TypesetKit

enum Watcher {
    static func run(_ request: TypesetRequest, build: () -> Void) -> Never {
        var last: [String: Date] = [:]
        while true {
            let inputs = inputsOf(request)
            var current: [String: Date] = [:]
            for path in inputs {
                current[path] = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date ?? .distantPast
            }
            if current != last {
                if !last.isEmpty { printError("typeset: change detected, rebuilding") }
                build()
                last = [:]
                for path in inputsOf(request) {
                    last[path] = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date ?? .distantPast
                }
            }
            Thread.sleep(forTimeInterval: 1)
        }
    }

    /// What the document reads now (cheap: parse and lower, no layout).
    private static func inputsOf(_ request: TypesetRequest) -> [String] {
        Typesetter.inputs(of: request)
    }
}
