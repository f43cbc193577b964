// swift-tools-version:6.0
import PackageDescription

/// SpeechHarness: a Linux reference of Apple's SpeechAnalyzer semantics, pluggable speech engines,
/// a conformance suite and benchmarks. C libraries come from Debian through pkg-config.
let package = Package(
    name: "SpeechHarness",
    products: [
        .library(name: "SpeechCore", targets: ["SpeechCore"]),
        .library(name: "AudioIO", targets: ["AudioIO"]),
        .library(name: "Corpus", targets: ["Corpus"]),
        .executable(name: "speech-harness", targets: ["speech-harness"]),
    ],
    targets: [
        // C libraries (Debian -dev packages, found with pkg-config).
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile",
                       providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CSampleRate", pkgConfig: "samplerate",
                       providers: [.apt(["libsamplerate0-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0",
                       providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CPocketSphinx", pkgConfig: "pocketsphinx",
                       providers: [.apt(["libpocketsphinx-dev", "libsphinxbase-dev"])]),
        .systemLibrary(name: "CSpanDSP", pkgConfig: "spandsp",
                       providers: [.apt(["libspandsp-dev"])]),

        // Pure Swift value types shared by everything.
        .target(name: "SpeechCore"),
        // Audio files, sample-rate conversion and chunked streaming.
        .target(name: "AudioIO", dependencies: ["SpeechCore", "CSndFile", "CSampleRate", "CSpanDSP"]),
        // Corpus manifests (our JSON lines, Kaldi, LibriSpeech, NeMo), validation, statistics, recipes.
        .target(name: "Corpus", dependencies: ["SpeechCore", "AudioIO"]),
        // Command-line front end: argument parsing and subcommands, kept apart from the libraries.
        .target(name: "HarnessCLI", dependencies: ["SpeechCore", "AudioIO", "Corpus"]),
        .executableTarget(name: "speech-harness", dependencies: ["HarnessCLI"]),

        .testTarget(name: "SpeechCoreTests", dependencies: ["SpeechCore"]),
        .testTarget(name: "AudioIOTests", dependencies: ["AudioIO", "SpeechCore"]),
        .testTarget(name: "CorpusTests", dependencies: ["Corpus", "AudioIO", "SpeechCore"]),
        .testTarget(name: "HarnessCLITests", dependencies: ["HarnessCLI"]),
        .testTarget(name: "SystemLibraryTests",
                    dependencies: ["CSndFile", "CSampleRate", "CLibXML2", "CPocketSphinx", "CSpanDSP"]),
    ],
    swiftLanguageModes: [.v6]
)
