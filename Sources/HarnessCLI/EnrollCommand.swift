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
                manifest.spec, locale.spec, out.spec, advance.spec, activeTarget.spec,
            ] + weights.map(\.option.spec) + [
                warp.spec
            ] + frontEndSettings.map(\.option.spec) + [templatesPerWord.spec, codebook.spec, noInstall.spec],
            details: """
                Uses only utterances with split "enrollment" whose reference is one vocabulary entry (a digit word or a \
                command); test-split audio is never read. Each locale becomes <locale>.shdt, which AssetInventory then \
                installs (checksummed) like any engine asset.
                """,
            run: { try await run("engine enroll", $0, $1) })
    ]

    static let manifest = Option.texts(
        "manifest", value: "M",
        help:
            "Manifest to enroll from (repeatable; default: the isolated English words and the es/fr/it/ru digits of Corpus/build)."
    )
    static let locale = Option.texts(
        "locale", value: "L", help: "Only this locale (repeatable; default: every locale found).")
    static let out = Option.text(
        "out", value: "DIR",
        help: "Where the template files go (default: $SPEECH_HARNESS_DSP_TEMPLATES or Corpus/build/dsp-templates).")
    static let advance = Option.integer(
        "advance", 2...3, value: "N",
        help: "Template frames one input frame may advance, 2 or 3 (default \(DecoderParameters().maximumAdvance)).")
    static let activeTarget = Option.integer(
        "active-target", 0...10_000_000, value: "N",
        help:
            "Narrow the beam when more cells than this survive a frame (default \(DecoderParameters().activeTarget); 0: fixed beam)."
    )
    static let warp = Option.numbers(
        "warp", 0.5...2, value: "W",
        help:
            "Filterbank warp to analyse exemplars at (repeatable; default 0.84, 0.92, 1, 1.08): each warp adds a template per exemplar."
    )
    /// The front end's settings, each a whole number on the command line, with what it sets.
    static let frontEndSettings: [(option: Option<Int?>, apply: @Sendable (inout FrontEndConfiguration, Int) -> Void)] =
        [
            (
                .integer("bands", 8...40, value: "N", help: "Mel bands (default \(FrontEndConfiguration().melBands))."),
                { $0.melBands = $1 }
            ),
            (
                .integer(
                    "hop-ms", 5...30, value: "ms",
                    help:
                        "Frame hop (default \(Int(FrontEndConfiguration().hopSeconds * 1000)) ms): longer hops decode faster."
                ), { $0.hopSeconds = Double($1) / 1000 }
            ),
            (
                .integer(
                    "cepstra", 4...24, value: "N",
                    help: "Cepstra per frame, c0 included (default \(FrontEndConfiguration().cepstra))."),
                { $0.cepstra = $1 }
            ),
            (
                .integer(
                    "plp-order", FrontEndConfiguration.plpOrders, value: "N",
                    help: "Cepstra from an N-pole perceptual-linear-prediction model instead of MFCC (default 0: MFCC)."
                ),
                { $0.plpOrder = $1 }
            ),
            (
                .integer(
                    "low-hz", 0...2000, value: "HZ",
                    help: "Lower edge of the filterbank (default \(Int(FrontEndConfiguration().lowHz)))."),
                { $0.lowHz = Double($1) }
            ),
            (
                .integer(
                    "high-hz", 1000...12000, value: "HZ",
                    help: "Upper edge of the filterbank (default \(Int(FrontEndConfiguration().highHz)))."),
                { $0.highHz = Double($1) }
            ),
        ]
    static let templatesPerWord = Option.integer(
        "templates-per-word", 1...1000, value: "K",
        help: "Keep the K most representative templates of each entry (k-medoids on DTW distance; default: all).")
    static let codebook = Option.integer(
        "codebook", 0...65_536, value: "K",
        help: "Vector-quantise template frames to K centroids for fast decoding (default 2048; 0: exact distances).")
    static let noInstall = Option.flag(
        "no-install", help: "Write the files only; do not install them into the asset store.")

    /// The decoder's weights, each a number ≥ 0, with the parameter it sets.
    static let weights: [(option: Option<Double?>, parameter: WritableKeyPath<DecoderParameters, Float> & Sendable)] = [
        weight("word-penalty", "Decoder cost per word started", \.wordPenalty),
        weight("stay-penalty", "Decoder cost per frame that stays on a template frame", \.stayPenalty),
        weight("beam", "Decoder beam", \.beam),
        weight("minimum-beam", "The narrowest the adaptive beam goes", \.minimumBeam),
        weight("silence-weight", "Weight of the silence model's distance", \.silenceWeight),
        weight("silence-speech-penalty", "Extra silence cost on speech-like frames", \.silenceSpeechPenalty),
    ]

    static func weight(
        _ name: String, _ what: String, _ parameter: WritableKeyPath<DecoderParameters, Float> & Sendable
    ) -> (option: Option<Double?>, parameter: WritableKeyPath<DecoderParameters, Float> & Sendable) {
        (.number(name, value: "X", help: "\(what) (default \(DecoderParameters()[keyPath: parameter]))."), parameter)
    }

    static func run(_ path: String, _ arguments: ParsedArguments, _ console: Console) async throws -> Int32 {
        let manifests = arguments[Self.manifest].isEmpty ? defaultManifests : arguments[Self.manifest]
        let output = arguments[Self.out] ?? DSPEngine.defaultTemplateDirectory
        var enrollment = TemplateEnrollment()
        var parameters = enrollment.parameters
        parameters.maximumAdvance = arguments[Self.advance] ?? parameters.maximumAdvance
        for (option, parameter) in weights {
            if let value = arguments[option] { parameters[keyPath: parameter] = Float(value) }
        }
        parameters.activeTarget = arguments[Self.activeTarget] ?? parameters.activeTarget
        enrollment.parameters = parameters
        let warps = arguments[Self.warp]
        if !warps.isEmpty { enrollment.warps = warps }
        var frontEnd = enrollment.frontEnd
        for (option, apply) in frontEndSettings {
            if let value = arguments[option] { apply(&frontEnd, value) }
        }
        enrollment.frontEnd = frontEnd
        enrollment.templatesPerWord = arguments[Self.templatesPerWord]
        enrollment.codebookSize = arguments[Self.codebook] ?? enrollment.codebookSize
        enrollment.installs = !arguments[Self.noInstall]

        let recordings = EnrollmentRecordings(
            manifests: manifests, locales: Set(arguments[Self.locale].map(LocaleTag.normalized)))
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
