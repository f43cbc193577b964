import Foundation

/// Where the package's own files are (worker scripts, the Python environment): `SPEECH_HARNESS_ROOT`,
/// else the working directory or a parent of the running executable that has `scripts/workers`,
/// else the checkout this module was compiled from (a team's package that depends on this one).
public enum PackageRoot {
    public static var path: String {
        let environment = HarnessContext.current.environment.variables
        if let root = HarnessSettings.root.text(in: environment) { return root }
        let marker = "/scripts/workers/whisper_worker.py"
        let cwd = FileManager.default.currentDirectoryPath
        if FileManager.default.fileExists(atPath: cwd + marker) { return cwd }
        var url = URL(fileURLWithPath: CommandLine.arguments.first ?? cwd).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for _ in 0..<6 {
            if FileManager.default.fileExists(atPath: url.path + marker) { return url.path }
            url.deleteLastPathComponent()
        }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        if FileManager.default.fileExists(atPath: source + marker) { return source }
        return cwd
    }
}
