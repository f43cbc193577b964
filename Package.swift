// swift-tools-version:6.0
import PackageDescription

#if os(Linux)
    import Glibc

    /// The toolchain's host libraries (SwiftSyntax, SwiftParser and their interfaces), which the
    /// migration lint parses with: `usr/lib/swift/host` of the toolchain evaluating this manifest,
    /// found from where that toolchain's PackageDescription library is loaded, so that no path is fixed.
    let swiftSyntaxHost: (folder: String, found: Bool) = {
        let suffix = "/pm/ManifestAPI/libPackageDescription.so"
        var folder = "<the folder of the toolchain's libPackageDescription.so>/../../host"
        if let maps = fopen("/proc/self/maps", "r") {
            var line: UnsafeMutablePointer<CChar>? = nil
            var capacity = 0
            while getline(&line, &capacity, maps) > 0, let text = line.map({ String(cString: $0) }) {
                guard let slash = text.firstIndex(of: "/") else { continue }
                let path = String(text[slash...].prefix { $0 != "\n" })
                if path.hasSuffix(suffix) {
                    folder = String(path.dropLast(suffix.count)) + "/host"
                    break
                }
            }
            free(line)
            fclose(maps)
        }
        let found = access(folder + "/SwiftParser.swiftmodule", F_OK) == 0
        if !found {
            print(
                "warning: SwiftSyntax host libraries not found: looked for SwiftParser.swiftmodule in \(folder); "
                    + "the migration lint (MigrationLint, speech-harness) cannot build without them")
        }
        return (folder, found)
    }()

    /// Compiles and links a target against the toolchain's SwiftSyntax and SwiftParser.
    let swiftSyntaxSettings: [SwiftSetting] =
        swiftSyntaxHost.found
        // Library evolution keeps the parser's modules internal to the target: what imports the
        // lint never loads them.
        ? [.unsafeFlags(["-I", swiftSyntaxHost.folder, "-enable-library-evolution"])]
        : [.define("SWIFT_SYNTAX_HOST_MISSING")]
    let swiftSyntaxLinking: [LinkerSetting] =
        swiftSyntaxHost.found
        ? [
            .unsafeFlags([
                "-L", swiftSyntaxHost.folder, "-lSwiftSyntax", "-lSwiftParser", "-lSwiftDiagnostics",
                "-lSwiftParserDiagnostics", "-lSwiftBasicFormat", "-Xlinker", "-rpath", "-Xlinker",
                swiftSyntaxHost.folder,
            ])
        ] : []
#endif

/// Apple's module names: on Linux the stand-ins that let Apple-style code compile and run, and
/// `SpeechHarnessTesting` with the test helpers. On Apple platforms (below) the same products
/// are thin pass-throughs, so one dependency line works on a developer's Mac and on Linux CI.
let appleNamedProducts: [Product] = [
    .library(name: "Speech", targets: ["Speech"]),
    .library(name: "CoreMedia", targets: ["CoreMedia"]),
    .library(name: "AVFAudio", targets: ["AVFAudio"]),
    .library(name: "AVFoundation", targets: ["AVFoundation"]),
    .library(name: "UniformTypeIdentifiers", targets: ["UniformTypeIdentifiers"]),
    .library(name: "SpeechHarnessTesting", targets: ["SpeechHarnessTesting"]),
]

/// SpeechHarness: a Linux reference of Apple's SpeechAnalyzer semantics, pluggable speech engines,
/// a conformance suite and benchmarks. C libraries come from Debian through pkg-config.
#if os(Linux)
    let package = Package(
        name: "SpeechHarness",
        products: [
            .library(name: "SpeechCore", targets: ["SpeechCore"]),
            .library(name: "AudioIO", targets: ["AudioIO"]),
            .library(name: "Corpus", targets: ["Corpus"]),
            .library(name: "Metrics", targets: ["Metrics"]),
            .library(name: "DSP", targets: ["DSP"]),
            .library(name: "EngineCore", targets: ["EngineCore"]),
            .library(name: "PocketSphinx", targets: ["PocketSphinx"]),
            .library(name: "DSPRecognizer", targets: ["DSPRecognizer"]),
            .library(name: "Workers", targets: ["Workers"]),
            .library(name: "SpeechReference", targets: ["SpeechReference"]),
            .library(name: "LegacySpeech", targets: ["LegacySpeech"]),
            .library(name: "VirtualDevice", targets: ["VirtualDevice"]),
            .library(name: "MigrationLint", targets: ["MigrationLint"]),
            // Deprecated alias (docs/products.md): removed in 0.2.0.
            .library(name: "Engines", targets: ["Engines"]),
            .executable(name: "speech-harness", targets: ["speech-harness"]),
        ] + appleNamedProducts,
        targets: [
            // C libraries (Debian -dev packages, found with pkg-config).
            .systemLibrary(
                name: "CSndFile", pkgConfig: "sndfile",
                providers: [.apt(["libsndfile1-dev"])]),
            .systemLibrary(
                name: "CSampleRate", pkgConfig: "samplerate",
                providers: [.apt(["libsamplerate0-dev"])]),
            .systemLibrary(
                name: "CLibXML2", pkgConfig: "libxml-2.0",
                providers: [.apt(["libxml2-dev"])]),
            .systemLibrary(
                name: "CPocketSphinx", pkgConfig: "pocketsphinx",
                providers: [.apt(["libpocketsphinx-dev", "libsphinxbase-dev"])]),
            .systemLibrary(
                name: "CSpanDSP", pkgConfig: "spandsp",
                providers: [.apt(["libspandsp-dev"])]),

            // Links the composition point into SpeechCore without a dependency (a weak C symbol).
            .target(name: "CHarnessComposition"),

            // Pure Swift value types shared by everything, the engine protocol, the engine registry
            // and the asset store.
            .target(name: "SpeechCore", dependencies: ["CHarnessComposition"]),
            // Audio files, sample-rate conversion and chunked streaming.
            .target(name: "AudioIO", dependencies: ["SpeechCore", "CSndFile", "CSampleRate", "CSpanDSP"]),
            // Linux stand-ins for Apple's CoreMedia and AVFAudio names (CMTime, AVAudioPCMBuffer, AVAudioFile…).
            .target(name: "CoreMedia", dependencies: ["SpeechCore"]),
            .target(name: "AVFAudio", dependencies: ["SpeechCore", "CoreMedia", "AudioIO", "VirtualDevice"]),
            // The simulated device under Apple-style code: virtual microphone, capture pacing, permissions.
            .target(name: "VirtualDevice", dependencies: ["SpeechCore", "AudioIO"]),
            // AVFoundation re-exports AVFAudio, CoreMedia and the content types, and adds
            // AVCaptureDevice's microphone permission.
            .target(
                name: "AVFoundation",
                dependencies: ["AVFAudio", "CoreMedia", "UniformTypeIdentifiers", "VirtualDevice"]),
            // UTType and URL's type-based extensions (pure Foundation).
            .target(name: "UniformTypeIdentifiers"),
            // Signal processing and template recognition for the DSP engine: pure Swift, no I/O.
            .target(name: "DSP", dependencies: ["SpeechCore"]),
            // Recognition engines behind SpeechCore's engine protocol, a module each, so that what
            // uses one engine links no other. The core needs no C library and no other process: the
            // scripted engine (exact words, times and faults) and the memoizing adapter.
            .target(name: "EngineCore", dependencies: ["SpeechCore"]),
            // PocketSphinx in process, on its own thread.
            .target(name: "PocketSphinx", dependencies: ["SpeechCore", "CPocketSphinx"]),
            // The DSP engine: the DSP module's template recogniser, with templates as assets.
            .target(name: "DSPRecognizer", dependencies: ["SpeechCore", "DSP"]),
            // Engines in other processes over the worker protocol (WorkerProtocol.md): Whisper, the
            // faulty worker, any external engine.
            .target(name: "Workers", dependencies: ["SpeechCore"], exclude: ["WorkerProtocol.md"]),
            // The engines product before 0.1.0 split it, as a deprecated alias (docs/products.md).
            .target(name: "Engines", dependencies: ["EngineCore", "PocketSphinx", "DSPRecognizer", "Workers"]),
            // The reference SpeechAnalyzer family: analyzer, modules, inputs, assets. It knows engines
            // only through SpeechCore's protocol and registry.
            // Planted faults for the mutation check exist in debug builds only (see PlantedFault.swift).
            .target(
                name: "SpeechReference",
                dependencies: ["SpeechCore", "CoreMedia", "AVFAudio", "AVFoundation", "AudioIO", "VirtualDevice"],
                swiftSettings: [.define("SPEECH_HARNESS_MUTATIONS", .when(configuration: .debug))]),
            // The legacy SFSpeechRecognizer API over any engine.
            .target(
                name: "LegacySpeech",
                dependencies: ["SpeechCore", "DSP", "SpeechReference", "AVFAudio", "CoreMedia", "VirtualDevice"]),
            // Whisper-style streaming policies over a whole-utterance engine (LocalAgreement, sliding
            // windows, segment confirmation).
            .target(name: "StreamingPolicies", dependencies: ["SpeechCore"]),
            // The composition point: registers every engine and streaming policy, and the corpus reader
            // the virtual microphone plays utterances with. Every program links it through `Speech`,
            // `SpeechHarnessTesting` or the command line, so all of them know the same engine ids.
            .target(
                name: "HarnessComposition",
                dependencies: [
                    "SpeechCore", "EngineCore", "PocketSphinx", "DSPRecognizer", "Workers", "StreamingPolicies",
                    "Corpus", "VirtualDevice", "TraceReplay",
                ]),
            // `import Speech` on Linux: the reference plus the Apple names it is typed in.
            .target(
                name: "Speech",
                dependencies: ["SpeechReference", "LegacySpeech", "AVFoundation", "CoreMedia", "HarnessComposition"]),
            // Scoring: normalisers, alignment, WER/CER, confidence intervals, latency and stability.
            .target(
                name: "Metrics", dependencies: ["SpeechCore"],
                resources: [.copy("Resources/whisper-english-spellings.json")]),
            // Running engines over corpora: pacing, per-utterance records, aggregation, gates.
            .target(
                name: "Benchmark",
                dependencies: [
                    "SpeechCore", "AudioIO", "AVFAudio", "CoreMedia", "EngineCore", "SpeechReference", "Corpus",
                    "Metrics", "Records",
                    "VirtualDevice",
                ]),
            // What runs produce, as values: utterance records, bench summaries and gates, conformance
            // outcomes. Reports read them without linking any engine.
            .target(name: "Records", dependencies: ["SpeechCore", "Metrics"]),
            // JUnit XML (libxml2), Markdown, HTML with SVG charts, sclite trn files.
            .target(
                name: "Reports",
                dependencies: [
                    "Records", "Metrics", "MigrationLint", "CLibXML2",
                ],
                resources: [.copy("junit.xsd")]),
            // Declarative conformance scenarios, tied to documented clauses, and their runner.
            .target(
                name: "Conformance",
                dependencies: [
                    "SpeechCore", "AVFAudio", "AVFoundation", "AudioIO", "CoreMedia", "EngineCore",
                    "SpeechReference",
                    "LegacySpeech",
                    "VirtualDevice", "StreamingPolicies", "Records",
                ],
                resources: [.copy("Scenarios"), .copy("clauses.json")]),
            // Corpus manifests (our JSON lines, Kaldi, LibriSpeech, NeMo), validation, statistics, recipes.
            .target(name: "Corpus", dependencies: ["SpeechCore", "AudioIO", "Metrics"]),
            // Migration lint: rules for SFSpeechRecognizer → SpeechAnalyzer mistakes on the syntax
            // tree of Swift's own parser (the toolchain's host libraries); no I/O. No Apple-named
            // product depends on it, so a team depending on `Speech` never builds the parser.
            .target(name: "MigrationLint", dependencies: ["LintSyntax"]),
            // Swift's own parser (the toolchain's host libraries) behind plain values: tokens, blocks,
            // problems. The one target that imports SwiftSyntax, built with library evolution so that
            // nothing importing it loads the parser's modules.
            .target(name: "LintSyntax", swiftSettings: swiftSyntaxSettings, linkerSettings: swiftSyntaxLinking),
            // Migration diff: the same audio through the legacy API and SpeechAnalyzer on one engine, compared.
            .target(
                name: "MigrationDiff",
                dependencies: [
                    "LegacySpeech", "AudioIO", "AVFAudio", "CoreMedia", "SpeechCore", "SpeechReference", "Metrics",
                    "Records",
                ]),
            // Command-line front end: argument parsing and subcommands, kept apart from the libraries.
            .target(
                name: "HarnessCLI",
                dependencies: [
                    "HarnessComposition", "SpeechCore", "AudioIO", "Corpus", "EngineCore", "DSPRecognizer", "Workers",
                    "SpeechReference", "AVFAudio",
                    "CoreMedia", "Metrics", "Benchmark", "Reports", "Conformance", "MigrationLint", "MigrationDiff",
                    "TraceReplay", "Records",
                ]),
            .executableTarget(name: "speech-harness", dependencies: ["HarnessCLI"]),
            // Apple-style programs that must compile unchanged against `import Speech` on Linux.
            .executableTarget(name: "example-perform-analysis", dependencies: ["Speech"]),
            .executableTarget(name: "example-file-transcription", dependencies: ["Speech"]),
            .executableTarget(name: "example-live-dictation", dependencies: ["Speech"]),
            .executableTarget(name: "example-live-analyzer", dependencies: ["Speech"]),
            .executableTarget(name: "example-record-playback", dependencies: ["AVFoundation"]),
            .executableTarget(name: "example-sdk27-inputs", dependencies: ["Speech"]),
            // The replay engine: answers audio with the words a recorded session trace (docs/session-traces.md)
            // gave for it. The traces themselves, and their comparison, are values in Records.
            .target(name: "TraceReplay", dependencies: ["SpeechCore", "Records"]),
            // Records analysis sessions as traces through Apple's public API only (docs/session-traces.md).
            .executableTarget(name: "speech-harness-record", dependencies: ["Speech"]),

            // Fuzzing (scripts/fuzz): each reader of outside files with its contract, and the binary
            // libFuzzer drives (built with -sanitize=fuzzer,address -DFUZZING) or that replays inputs.
            .target(
                name: "FuzzChecks",
                dependencies: [
                    "AudioIO", "Corpus", "Conformance", "Records", "EngineCore", "Workers", "MigrationLint",
                    "HarnessCLI",
                    "SpeechCore",
                ], path: "Fuzz/FuzzChecks"),
            .target(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
            .executableTarget(
                name: "speech-harness-fuzz", dependencies: ["FuzzChecks", "CLibFuzzer", "SpeechCore"],
                path: "Fuzz/speech-harness-fuzz"),

            // Helpers shared by the test targets.
            // What test code needs from the harness (virtual device, engine selection, scripted engine).
            .target(name: "SpeechHarnessTesting", dependencies: ["VirtualDevice", "EngineCore", "HarnessComposition"]),

            .target(
                name: "TestSupport", dependencies: ["SpeechReference", "SpeechCore", "AudioIO"],
                path: "Tests/TestSupport"),
            .testTarget(name: "SpeechCoreTests", dependencies: ["SpeechCore"]),
            .testTarget(name: "DSPTests", dependencies: ["DSP", "SpeechCore", "TestSupport", "AudioIO"]),
            .testTarget(
                name: "LegacySpeechTests",
                dependencies: [
                    "Speech", "EngineCore", "PocketSphinx", "SpeechCore", "TestSupport", "VirtualDevice", "AudioIO",
                ]),
            .testTarget(
                name: "StreamingPoliciesTests",
                dependencies: ["StreamingPolicies", "EngineCore", "SpeechCore", "Metrics"]),
            .testTarget(
                name: "HarnessCompositionTests",
                dependencies: ["HarnessComposition", "SpeechCore", "TestSupport", "VirtualDevice"]),
            .testTarget(
                name: "MigrationDiffTests",
                dependencies: [
                    "MigrationDiff", "Records", "Reports", "EngineCore", "SpeechCore", "TestSupport", "AudioIO",
                ]),
            .testTarget(name: "MigrationLintTests", dependencies: ["MigrationLint", "Reports", "TestSupport"]),
            .testTarget(name: "LintSyntaxTests", dependencies: ["LintSyntax"]),
            .testTarget(name: "MetricsTests", dependencies: ["Metrics", "TestSupport"]),
            .testTarget(
                name: "ConformanceTests",
                dependencies: ["Records", "Conformance", "SpeechReference", "Reports", "TestSupport"],
                swiftSettings: [.define("SPEECH_HARNESS_MUTATIONS", .when(configuration: .debug))]),
            .testTarget(
                name: "BenchmarkTests",
                dependencies: [
                    "Records",
                    "Benchmark", "Reports", "Metrics", "EngineCore", "PocketSphinx", "Corpus", "TestSupport",
                    "CLibXML2",
                ]),
            .testTarget(name: "RecordsTests", dependencies: ["Records", "Metrics", "SpeechCore", "TestSupport"]),
            .testTarget(
                name: "ReportsTests",
                dependencies: [
                    "Records", "Reports", "Benchmark", "Metrics", "Conformance", "TestSupport",
                ]),
            .testTarget(
                name: "AVFAudioTests",
                dependencies: ["TestSupport", "AVFAudio", "CoreMedia", "VirtualDevice", "AudioIO", "SpeechCore"]),
            .testTarget(name: "AVFoundationTests", dependencies: ["AVFoundation", "VirtualDevice"]),
            .testTarget(name: "CoreMediaTests", dependencies: ["CoreMedia"]),
            .testTarget(name: "UniformTypeIdentifiersTests", dependencies: ["UniformTypeIdentifiers"]),
            .testTarget(
                name: "VirtualDeviceTests", dependencies: ["TestSupport", "VirtualDevice", "AudioIO", "SpeechCore"]),
            .testTarget(name: "EngineCoreTests", dependencies: ["TestSupport", "EngineCore", "SpeechCore"]),
            .testTarget(name: "PocketSphinxTests", dependencies: ["TestSupport", "PocketSphinx", "SpeechCore"]),
            .testTarget(
                name: "WorkersTests", dependencies: ["TestSupport", "Workers", "SpeechCore", "AudioIO", "Metrics"]),
            .testTarget(
                name: "SpeechReferenceTests",
                dependencies: [
                    "TestSupport", "SpeechReference", "EngineCore", "SpeechCore", "CoreMedia", "AVFAudio",
                    "AVFoundation",
                    "VirtualDevice",
                ]),
            .testTarget(name: "AudioIOTests", dependencies: ["TestSupport", "AudioIO", "SpeechCore"]),
            .testTarget(name: "CorpusTests", dependencies: ["TestSupport", "Corpus", "AudioIO", "SpeechCore"]),
            .testTarget(
                name: "HarnessCLITests",
                dependencies: ["Workers", "Records", "HarnessCLI", "SpeechCore", "TestSupport", "MigrationLint"]),
            .testTarget(
                name: "TraceReplayTests", dependencies: ["TraceReplay", "Records", "SpeechCore", "TestSupport"]),
            .testTarget(name: "FuzzChecksTests", dependencies: ["FuzzChecks", "TestSupport"]),
            // Real engines through the reference analyzer, on real audio.
            .testTarget(
                name: "IntegrationTests",
                dependencies: [
                    "TestSupport", "SpeechReference", "LegacySpeech", "StreamingPolicies", "EngineCore", "PocketSphinx",
                    "DSPRecognizer", "Workers", "DSP", "Corpus",
                    "AudioIO", "AVFAudio",
                    "CoreMedia", "VirtualDevice",
                ]),
            .testTarget(
                name: "SystemLibraryTests",
                dependencies: ["CSndFile", "CSampleRate", "CLibXML2", "CPocketSphinx", "CSpanDSP"]),
        ],
        swiftLanguageModes: [.v6]
    )

#else
    /// On Apple platforms the products add nothing: `import Speech` and `import AVFoundation` reach
    /// Apple's frameworks, and `SpeechHarnessTesting` is empty (guard its use with `#if os(Linux)`).
    let package = Package(
        name: "SpeechHarness",
        products: ["Speech", "CoreMedia", "AVFAudio", "AVFoundation", "UniformTypeIdentifiers", "SpeechHarnessTesting"]
            .map {
                .library(name: $0, targets: ["ApplePlatforms\($0)"])
            },
        targets: ["Speech", "CoreMedia", "AVFAudio", "AVFoundation", "UniformTypeIdentifiers", "SpeechHarnessTesting"]
            .map {
                .target(name: "ApplePlatforms\($0)", path: "Sources/ApplePlatforms/\($0)")
            }
    )
#endif
