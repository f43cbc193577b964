import Foundation
import SpeechCore

/// `speech-harness engines`: what engines exist, what they can do, whether they are installed.
enum EngineCommands {
    static let specs: [CommandSpec] = [
        CommandSpec(
            path: "engines",
            summary: "List engines with their capabilities, locales and whether their assets are installed.",
            options: [json.spec],
            details: "Any listed id can be given to --engine, or to Apple-style code through SPEECH_HARNESS_ENGINE.",
            run: { try run("engines", $0, $1) })
    ]

    static let json = Option.flag("json", help: "Machine-readable output.")

    static func run(_ path: String, _ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
        var rows: [[String: Any]] = []
        for id in EngineRegistry.shared.ids {
            guard let entry = EngineRegistry.shared.entry(id) else { continue }
            do {
                let engine = try entry.make()
                let c = engine.capabilities
                let installed = c.locales.filter { engine.isInstalled(locale: $0) }
                rows.append([
                    "id": id, "summary": entry.summary, "partialResults": c.partialResults, "wordTimes": c.wordTimes,
                    "alternatives": c.alternatives, "confidence": c.confidence, "locales": c.locales,
                    "installedLocales": installed,
                    "formats": c.formats.map(\.description),
                ])
            } catch {
                rows.append(["id": id, "summary": entry.summary, "error": "\(error)"])
            }
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
            let locales = row["locales"] as! [String], installed = row["installedLocales"] as! [String]
            console.out(
                "  locales: \(locales.joined(separator: " ")); installed: \(installed.isEmpty ? "none" : installed.joined(separator: " "))"
            )
        }
        for family in EngineRegistry.shared.engineFamilies { console.out("\(family.pattern): \(family.summary)") }
        return 0
    }
}
