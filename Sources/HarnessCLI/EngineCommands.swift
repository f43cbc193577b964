import Foundation
import SpeechCore

/// `speech-harness engines`: what engines exist, what they can do, whether they are installed.
enum EngineCommands {
    static let specs: [CommandSpec] = [
        CommandSpec(
            path: "engines",
            summary: "List engines with their capabilities, locales and whether their assets are installed.",
            options: [json.spec],
            details:
                "Any listed id can be given to --engine, or to Apple-style code through SPEECH_HARNESS_ENGINE; an engine over Whisper takes its model and settings in brackets (whisper[base], whisper-streaming-la2[base,beam5]), and its listed variants show each model's locales.",
            run: { try run("engines", $0, $1) })
    ]

    static let json = Option.flag("json", help: "Machine-readable output.")

    static func run(_ path: String, _ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
        var rows: [[String: Any]] = []
        let registry = HarnessContext.current.engines
        for id in registry.ids {
            guard let entry = registry.entry(id) else { continue }
            var row = describe { try entry.make() }
            row["id"] = id
            row["summary"] = entry.summary
            if !entry.variants.isEmpty {
                row["variants"] = entry.variants.map { name in
                    var variant = describe { try registry.make(name) }
                    variant["name"] = name
                    return variant
                }
            }
            rows.append(row)
        }
        if arguments[Self.json] {
            let data = try JSONSerialization.data(withJSONObject: rows, options: [.prettyPrinted, .sortedKeys])
            console.out(String(decoding: data, as: UTF8.self))
            return 0
        }
        for row in rows {
            let id = row["id"] as! String
            console.out("\(id): \(row["summary"] as! String)")
            if let error = row["error"] as? String {
                console.out("  unavailable: \(error)")
                continue
            }
            let features = ["partialResults", "wordTimes", "alternatives", "confidence"].filter {
                row[$0] as? Bool == true
            }
            console.out("  capabilities: \(features.joined(separator: ", "))")
            console.out("  " + localeLine(row))
            for variant in row["variants"] as? [[String: Any]] ?? [] {
                console.out(
                    "  \(variant["name"] as! String): " + ((variant["error"] as? String) ?? localeLine(variant)))
            }
        }
        for family in HarnessContext.current.engines.engineFamilies {
            console.out("\(family.pattern): \(family.summary)")
        }
        return 0
    }

    /// What a listing shows of one engine: its capabilities and locales, or why it cannot be made.
    private static func describe(_ make: () throws -> any RecognitionEngine) -> [String: Any] {
        do {
            let engine = try make()
            let c = engine.capabilities
            return [
                "partialResults": c.partialResults, "wordTimes": c.wordTimes, "alternatives": c.alternatives,
                "confidence": c.confidence, "locales": c.locales,
                "installedLocales": c.locales.filter { engine.isInstalled(locale: $0) },
                "formats": c.formats.map(\.description),
            ]
        } catch {
            return ["error": "\(error)"]
        }
    }

    private static func localeLine(_ row: [String: Any]) -> String {
        let locales = row["locales"] as! [String], installed = row["installedLocales"] as! [String]
        return
            "locales: \(locales.joined(separator: " ")); installed: \(installed.isEmpty ? "none" : installed.joined(separator: " "))"
    }
}
