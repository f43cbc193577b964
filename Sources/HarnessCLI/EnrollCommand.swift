import AudioIO
import Corpus
import DSP
import DSPRecognizer
import Foundation
import SpeechCore

/// `speech-harness engine enroll`: DSP templates per locale from the corpus's enrollment split.
enum EnrollCommand {
    static let defaultManifests = [
        "synthetic-words-en", "real-digits-es", "real-digits-fr", "real-digits-it", "real-digits-ru",
    ]
    .map { "Corpus/build/\($0)/manifest.jsonl" }

    static let specs: [CommandSpec] = [
        CommandSpec(
            path: "engine enroll",
            summary: "Build the DSP engine's word templates from enrollment utterances and install them.",
            options: [
                OptionSpec(
                    name: "manifest", value: "M",
                    help:
                        "Manifest to enroll from (repeatable; default: the isolated English words and the es/fr/it/ru digits of Corpus/build).",
                    repeatable: true),
                OptionSpec(
                    name: "locale", value: "L", help: "Only this locale (repeatable; default: every locale found).",
                    repeatable: true),
                OptionSpec(
                    name: "out", value: "DIR",
                    help:
                        "Where the template files go (default: $SPEECH_HARNESS_DSP_TEMPLATES or Corpus/build/dsp-templates)."
                ),
                OptionSpec(
                    name: "word-penalty", value: "X",
                    help: "Decoder cost per word started (default \(DecoderParameters().wordPenalty))."),
                OptionSpec(
                    name: "stay-penalty", value: "X",
                    help:
                        "Decoder cost per frame that stays on a template frame (default \(DecoderParameters().stayPenalty))."
                ),
                OptionSpec(
                    name: "advance", kind: .integer("N", 2...3),
                    help:
                        "Template frames one input frame may advance, 2 or 3 (default \(DecoderParameters().maximumAdvance))."
                ),
                OptionSpec(name: "beam", value: "X", help: "Decoder beam (default \(DecoderParameters().beam))."),
                OptionSpec(
                    name: "active-target", kind: .integer("N", 0...10_000_000),
                    help:
                        "Narrow the beam when more cells than this survive a frame (default \(DecoderParameters().activeTarget); 0: fixed beam)."
                ),
                OptionSpec(
                    name: "minimum-beam", value: "X",
                    help: "The narrowest the adaptive beam goes (default \(DecoderParameters().minimumBeam))."),
                OptionSpec(
                    name: "silence-weight", value: "X",
                    help: "Weight of the silence model's distance (default \(DecoderParameters().silenceWeight))."),
                OptionSpec(
                    name: "warp", value: "W",
                    help:
                        "Filterbank warp to analyse exemplars at (repeatable; default 0.84, 0.92, 1, 1.08): each warp adds a template per exemplar.",
                    repeatable: true),
                OptionSpec(
                    name: "bands", kind: .integer("N", 8...40),
                    help: "Mel bands (default \(FrontEndConfiguration().melBands))."),
                OptionSpec(
                    name: "hop-ms", kind: .integer("ms", 5...30),
                    help:
                        "Frame hop (default \(Int(FrontEndConfiguration().hopSeconds * 1000)) ms): longer hops decode faster."
                ),
                OptionSpec(
                    name: "cepstra", kind: .integer("N", 4...24),
                    help: "Cepstra per frame, c0 included (default \(FrontEndConfiguration().cepstra))."),
                OptionSpec(
                    name: "plp-order", kind: .integer("N", FrontEndConfiguration.plpOrders),
                    help: "Cepstra from an N-pole perceptual-linear-prediction model instead of MFCC (default 0: MFCC)."
                ),
                OptionSpec(
                    name: "low-hz", kind: .integer("HZ", 0...2000),
                    help: "Lower edge of the filterbank (default \(Int(FrontEndConfiguration().lowHz)))."),
                OptionSpec(
                    name: "high-hz", kind: .integer("HZ", 1000...12000),
                    help: "Upper edge of the filterbank (default \(Int(FrontEndConfiguration().highHz)))."),
                OptionSpec(
                    name: "silence-speech-penalty", value: "X",
                    help:
                        "Extra silence cost on speech-like frames (default \(DecoderParameters().silenceSpeechPenalty))."
                ),
                OptionSpec(
                    name: "templates-per-word", kind: .integer("K", 1...1000),
                    help:
                        "Keep the K most representative templates of each entry (k-medoids on DTW distance; default: all)."
                ),
                OptionSpec(
                    name: "codebook", kind: .integer("K", 0...65_536),
                    help:
                        "Vector-quantise template frames to K centroids for fast decoding (default 2048; 0: exact distances)."
                ),
                OptionSpec(
                    name: "no-install", value: nil,
                    help: "Write the files only; do not install them into the asset store."),
            ],
            details: """
                Uses only utterances with split "enrollment" whose reference is one vocabulary entry (a digit word or a \
                command); test-split audio is never read. Each locale becomes <locale>.shdt, which AssetInventory then \
                installs (checksummed) like any engine asset.
                """,
            run: { try await run("engine enroll", $0, $1) })
    ]

    static func run(_ path: String, _ arguments: ParsedArguments, _ console: Console) async throws -> Int32 {
        let manifests = arguments.all("manifest").isEmpty ? defaultManifests : arguments.all("manifest")
        let output = arguments.value("out") ?? DSPEngine.defaultTemplateDirectory
        var enrollment = TemplateEnrollment()
        func number(_ name: String) throws -> Float? {
            guard let text = arguments.value(name) else { return nil }
            guard let value = Float(text), value >= 0, value.isFinite else {
                throw UsageError(message: "--\(name) expects a number ≥ 0, got '\(text)'", command: path)
            }
            return value
        }
        var parameters = enrollment.parameters
        parameters.maximumAdvance = arguments.integer("advance") ?? parameters.maximumAdvance
        parameters.wordPenalty = try number("word-penalty") ?? parameters.wordPenalty
        parameters.stayPenalty = try number("stay-penalty") ?? parameters.stayPenalty
        parameters.beam = try number("beam") ?? parameters.beam
        parameters.activeTarget = arguments.integer("active-target") ?? parameters.activeTarget
        parameters.minimumBeam = try number("minimum-beam") ?? parameters.minimumBeam
        parameters.silenceWeight = try number("silence-weight") ?? parameters.silenceWeight
        parameters.silenceSpeechPenalty = try number("silence-speech-penalty") ?? parameters.silenceSpeechPenalty
        enrollment.parameters = parameters
        let warps = try arguments.all("warp").map { text -> Double in
            guard let w = Double(text), (0.5...2).contains(w) else {
                throw UsageError(message: "--warp expects a factor in 0.5…2, got '\(text)'", command: path)
            }
            return w
        }
        if !warps.isEmpty { enrollment.warps = warps }
        var frontEnd = enrollment.frontEnd
        frontEnd.melBands = arguments.integer("bands") ?? frontEnd.melBands
        frontEnd.hopSeconds = Double(arguments.integer("hop-ms") ?? Int(frontEnd.hopSeconds * 1000)) / 1000
        frontEnd.cepstra = arguments.integer("cepstra") ?? frontEnd.cepstra
        frontEnd.plpOrder = arguments.integer("plp-order") ?? 0
        frontEnd.lowHz = Double(arguments.integer("low-hz") ?? Int(frontEnd.lowHz))
        frontEnd.highHz = Double(arguments.integer("high-hz") ?? Int(frontEnd.highHz))
        enrollment.frontEnd = frontEnd
        enrollment.templatesPerWord = arguments.integer("templates-per-word")
        enrollment.codebookSize = arguments.integer("codebook") ?? enrollment.codebookSize
        enrollment.installs = !arguments.has("no-install")

        let recordings = EnrollmentRecordings(
            manifests: manifests, locales: Set(arguments.all("locale").map(LocaleTag.normalized)))
        recordings.problems.forEach(console.err)
        var problems = recordings.problems.count
        guard !recordings.byLocale.isEmpty else {
            console.err(
                "speech-harness engine enroll: no enrollment exemplars in \(manifests.joined(separator: ", ")) (run 'speech-harness corpus build' first)"
            )
            return 1
        }
        for locale in recordings.byLocale.keys.sorted() {
            let exemplars = recordings.byLocale[locale]!.map {
                TemplateEnroller.Exemplar(
                    samples: $0.samples, sampleRate: $0.sampleRate, text: $0.text, task: $0.task, group: $0.speaker,
                    source: $0.id)
            }
            let outcome = try await enrollment.enroll(exemplars, locale: locale, into: output) { problem in
                console.err("\(locale): \(problem)")
                problems += 1
            }
            console.out(
                "\(locale): \(outcome.entries) entries, \(outcome.templates) templates, \(outcome.frames) frames, \(outcome.bytes) bytes -> \(outcome.file)"
                    + (outcome.installed ? " (installed)" : ""))
        }
        return problems == 0 ? 0 : 1
    }
}
