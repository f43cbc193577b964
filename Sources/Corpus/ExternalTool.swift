import Foundation
import SpeechCore

/// Runs a command-line program to completion and returns its standard output.
enum ExternalTool {
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        guard let executable = locate(tool) else {
            throw CorpusBuildError.toolFailed(
                tool: tool, arguments: arguments, status: 127, stderr: "not found on PATH")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes before waiting so a chatty tool cannot block on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CorpusBuildError.toolFailed(
                tool: tool, arguments: arguments, status: process.terminationStatus,
                stderr: String(decoding: errData, as: UTF8.self))
        }
        return outData
    }

    static func locate(_ tool: String) -> String? {
        if tool.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: tool) ? tool : nil }
        let path = HarnessContext.current.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
