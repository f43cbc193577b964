import Conformance
import EngineCore
import Foundation
import Records
import SpeechCore

extension FuzzTarget {
    /// A conformance scenario file (one scenario or an array).
    static let scenario = FuzzTarget(
        name: "scenario", summary: "a conformance scenario file",
        seeds: ["Sources/Conformance/Scenarios/*.json", "Tests/Fixtures/fuzz/scenario/*"]
    ) { bytes, scratch in
        let path = scratch.write("scenario.json", bytes)
        do {
            _ = try ScenarioCatalog.load(path: path)
            return nil
        } catch {
            return naming(path, error)
        }
    }

    /// A session trace (JSON lines), as `trace diff` and `replay:` read one.
    static let sessionTrace = FuzzTarget(
        name: "session-trace", summary: "a session trace (JSON lines)",
        seeds: ["Tests/Fixtures/session-traces/*/*.jsonl", "Tests/Fixtures/fuzz/session-trace/*"]
    ) { bytes, scratch in
        let path = scratch.write("trace.jsonl", bytes)
        do {
            _ = try SessionTrace.read(path: path)
            return nil
        } catch {
            return naming(path, error)
        }
    }

    /// `.speech-harness.json`: every setting by its key, read strictly (`ConfigurationFile`).
    static let configuration = FuzzTarget(
        name: "configuration", summary: "a .speech-harness.json",
        seeds: ["Tests/Fixtures/fuzz/configuration/*"]
    ) { bytes, scratch in
        let path = scratch.write(".speech-harness.json", bytes)
        do {
            _ = try EngineRegistry.configuredEngineID(environment: [:], directory: scratch.directory)
            return nil
        } catch {
            return naming(path, error)
        }
    }

    /// A scripted engine's script (or a manifest line with words).
    static let engineScript = FuzzTarget(
        name: "engine-script", summary: "a scripted engine's script",
        seeds: ["Tests/Fixtures/fuzz/engine-script/*"]
    ) { bytes, scratch in
        let path = scratch.write("script.json", bytes)
        do {
            _ = try EngineScript.load(path: path)
            return nil
        } catch {
            return naming(path, error)
        }
    }
}
