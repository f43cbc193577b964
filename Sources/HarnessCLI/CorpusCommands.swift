import Corpus
import Foundation

/// `speech-harness corpus build | validate | stats`.
enum CorpusCommands {
    static let defaultRecipe = "Corpus/recipe.json"
    static let defaultOutput = "Corpus/build"

    static let specs: [CommandSpec] = [
        CommandSpec(
            path: "corpus build",
            summary: "Build the default corpus from Debian packages (audio is built, never committed).",
            options: [Build.recipe.spec, Build.out.spec, Build.tier.spec, Build.force.spec, Build.jobs.spec],
            details:
                "Tiers: \(CorpusBuilder.tiers.joined(separator: ", ")).\nThe English synthetic digit and command tiers also write -snr20, -snr10 and -snr5 noisy copies.",
            run: build),
        CommandSpec(
            path: "corpus validate",
            summary: "Check manifests and their audio; report every bad entry with file and line.",
            options: Manifests.specs,
            arguments: [.oneOrMore("manifest")],
            run: validate),
        CommandSpec(
            path: "corpus stats",
            summary: "Utterances, minutes, speakers and words per tier.",
            options: [Stats.format.spec, Stats.out.spec],
            arguments: [.any("manifest")],
            run: stats),
    ]

    /// The options of `corpus build`.
    enum Build {
        static let recipe = Option.text("recipe", value: "file", help: "Corpus recipe (default \(defaultRecipe)).")
        static let out = Option.text("out", value: "dir", help: "Output folder (default \(defaultOutput)).")
        static let tier = Option.texts("tier", value: "name", help: "Build only this tier (repeatable).")
        static let force = Option.flag("force", help: "Rebuild even when the output matches the recipe.")
        static let jobs = Option.integer(
            "jobs", 1...64, value: "n", help: "Tiers built at once (default: the number of cores).")
    }

    /// The options of `corpus stats`.
    enum Stats {
        static let format = Option.choice("format", ManifestFormat.self, help: "Manifest format (default: detected).")
        static let out = Option.text(
            "out", value: "dir", help: "Built corpus to summarise when no manifest is given (default \(defaultOutput))."
        )
    }

    static func build(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
        let recipePath = arguments[Build.recipe] ?? defaultRecipe
        let output = arguments[Build.out] ?? defaultOutput
        let tiers = arguments[Build.tier]
        if let unknown = tiers.first(where: { !CorpusBuilder.tiers.contains($0) }) {
            throw UsageError(
                message: "unknown tier '\(unknown)'; tiers: \(CorpusBuilder.tiers.joined(separator: ", "))",
                command: "corpus build")
        }
        let recipe = try CorpusRecipe.load(path: recipePath)
        let stamp = output + "/.recipe-stamp"
        let recipeText = (try? String(contentsOfFile: recipePath, encoding: .utf8)) ?? ""
        let wantedStamp = "\(CorpusRecipeStamp.version)\n" + recipeText
        if tiers.isEmpty && !arguments[Build.force],
            (try? String(contentsOfFile: stamp, encoding: .utf8)) == wantedStamp
        {
            console.out("corpus in \(output) is up to date with \(recipePath) (use --force to rebuild)")
            return 0
        }
        let started = Date()
        let builder = CorpusBuilder(recipe: recipe, output: output, log: console.out)
        try? FileManager.default.removeItem(atPath: stamp)
        _ = try builder.build(
            tiers: tiers.isEmpty ? nil : Set(tiers),
            jobs: arguments[Build.jobs] ?? ProcessInfo.processInfo.activeProcessorCount)
        if tiers.isEmpty { try wantedStamp.write(toFile: stamp, atomically: true, encoding: .utf8) }
        console.out(String(format: "corpus built in %@ in %.1f s", output, Date().timeIntervalSince(started)))
        return 0
    }

    /// The manifest-reading options `corpus validate` and `bench` share.
    enum Manifests {
        static let format = Option.choice("format", ManifestFormat.self, help: "Manifest format (default: detected).")
        static let locale = Option.text(
            "locale", value: "id", help: "Locale of entries that state none (default \(ManifestReader.defaultLocale)).")
        static let allowOutsideRoot = Option.flag(
            "allow-outside-root",
            help: "Accept audio outside a JSON-lines manifest's folder (other formats are never confined).")
        static let corpusRoot = Option.text(
            "corpus-root", value: "dir",
            help: "Refuse audio outside this folder (after '..' and links), whatever the format.")
        static let allowCommands = Option.flag(
            "allow-commands", help: "Run Kaldi wav.scp pipelines ('flac -c -d -s x.flac |') to get their audio.")
        static let commandTimeout = Option.positive(
            "command-timeout", value: "s", help: "Longest a wav.scp pipeline may run (default 120).")

        static let specs = [
            format.spec, locale.spec, allowOutsideRoot.spec, corpusRoot.spec, allowCommands.spec, commandTimeout.spec,
        ]
    }

    static func manifestOptions(_ arguments: ParsedArguments, command: String) throws -> ManifestOptions {
        var commands: PipedAudio?
        if arguments[Manifests.allowCommands] {
            commands = PipedAudio(timeout: arguments[Manifests.commandTimeout] ?? 120)
        }
        return ManifestOptions(
            format: arguments[Manifests.format],
            locale: arguments[Manifests.locale] ?? ManifestReader.defaultLocale,
            allowOutsideRoot: arguments[Manifests.allowOutsideRoot], commands: commands,
            corpusRoot: arguments[Manifests.corpusRoot])
    }

    static func validate(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
        let options = try manifestOptions(arguments, command: "corpus validate")
        var problems = 0, good = 0
        for path in arguments.positionals {
            let checked = ManifestReader.load(path: path, options: options)
            for warning in checked.warnings { console.out("warning: \(warning)") }
            for issue in checked.issues { console.out(issue.description) }
            problems += checked.issues.count
            good += checked.utterances.count
            console.out(
                "\(path): \(checked.utterances.count) valid, \(checked.issues.count) problem\(checked.issues.count == 1 ? "" : "s")"
            )
        }
        return problems == 0 ? 0 : 1
    }

    static func stats(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
        let format = arguments[Stats.format]
        var manifests = arguments.positionals
        if manifests.isEmpty {
            let output = arguments[Stats.out] ?? defaultOutput
            let tiers = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
            manifests = tiers.sorted().map { "\(output)/\($0)/manifest.jsonl" }.filter {
                FileManager.default.fileExists(atPath: $0)
            }
            if manifests.isEmpty {
                console.err(
                    "speech-harness corpus stats: no manifests in \(output); run 'speech-harness corpus build' first")
                return 1
            }
        }
        var utterances: [Utterance] = []
        var problems = 0
        for path in manifests {
            let load = ManifestReader.load(path: path, format: format)
            for issue in load.issues { console.err(issue.description) }
            problems += load.issues.count
            utterances += load.utterances.map { u in
                var u = u
                if u.tier == nil { u.tier = (path as NSString).lastPathComponent }
                return u
            }
        }
        console.out(CorpusStatistics(utterances).table())
        return problems == 0 ? 0 : 1
    }
}

/// Bumped when the builder changes what it writes, so an old build is not taken as current.
enum CorpusRecipeStamp {
    static let version = "builder-2"
}
