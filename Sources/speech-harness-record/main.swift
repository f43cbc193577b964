// speech-harness-record: runs analysis scenarios over audio files and writes one session trace per
// scenario and file (docs/session-traces.md). It uses Apple's public API only (Speech,
// AVFoundation), so the same source records the harness's reference analyzer on Linux and Apple's
// framework on macOS 26.
// Usage: speech-harness-record --out DIR [--locale ID] [--second-locale ID] [--scenario NAME]...
//        [--open-after SECONDS] [--pacing fast|realtime] [--install-assets] AUDIO...
//        speech-harness-record --device-answers FILE  (the device's locale and availability answers)
import AVFoundation
import Foundation
import Speech

func usage() -> Never {
    let names = Scenario.allCases.map(\.rawValue).joined(separator: ", ")
    FileHandle.standardError.write(
        Data(
            "usage: speech-harness-record --out DIR [--locale ID] [--second-locale ID] [--scenario NAME]... [--open-after SECONDS] [--pacing fast|realtime] [--install-assets] AUDIO...\n       speech-harness-record --device-answers FILE\nscenarios: \(names)\n"
                .utf8))
    exit(2)
}

var out: String?
var localeID = "en-US"
var secondLocaleID = "es-ES"
var scenarios: [Scenario] = []
var files: [String] = []
var installAssets = false
var openAfter = 10.0
var pacing = InputClock.Pacing.fast
var deviceAnswers: String?
var rest = CommandLine.arguments.dropFirst()
while let argument = rest.popFirst() {
    switch argument {
    case "--out":
        guard let value = rest.popFirst() else { usage() }
        out = value
    case "--locale":
        guard let value = rest.popFirst() else { usage() }
        localeID = value
    case "--second-locale":
        guard let value = rest.popFirst() else { usage() }
        secondLocaleID = value
    case "--open-after":
        guard let value = rest.popFirst().flatMap(Double.init), value > 0 else { usage() }
        openAfter = value
    case "--pacing":
        guard let value = rest.popFirst().flatMap(InputClock.Pacing.init) else { usage() }
        pacing = value
    case "--scenario":
        guard let name = rest.popFirst(), let scenario = Scenario(rawValue: name) else { usage() }
        scenarios.append(scenario)
    case "--install-assets": installAssets = true
    case "--device-answers":
        guard let value = rest.popFirst() else { usage() }
        deviceAnswers = value
    case "--help", "-h": usage()
    default:
        if argument.hasPrefix("-") { usage() }
        files.append(argument)
    }
}
if scenarios.isEmpty { scenarios = Scenario.allCases }

#if os(Linux)
    let speech = "reference"
#else
    let speech = "apple"
#endif
let version = ProcessInfo.processInfo.operatingSystemVersion
let platform = TraceLine.Platform(
    system: systemName(),
    version: "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)", speech: speech)

func systemName() -> String {
    #if os(Linux)
        return "Linux"
    #elseif os(macOS)
        return "macOS"
    #else
        return "other"
    #endif
}

if let deviceAnswers {
    guard files.isEmpty, out == nil else { usage() }
    do {
        try await DeviceAnswers.ask(platform: platform).write(to: deviceAnswers)
        print(deviceAnswers)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("speech-harness-record: \(deviceAnswers): \(error)\n".utf8))
        exit(1)
    }
}
guard let out, !files.isEmpty else { usage() }
try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
// On a fresh machine Apple's models are not installed: install them first, outside any trace.
if installAssets {
    for id in [localeID, secondLocaleID] {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: id), preset: .transcription)
        if let request = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await request.downloadAndInstall()
        }
    }
}
var failed = false
for path in files {
    let url = URL(fileURLWithPath: path)
    let recorder: Recorder
    do {
        recorder = try Recorder(
            audio: url, locale: Locale(identifier: localeID), platform: platform,
            missingLocale: Locale(identifier: "zu-ZA"), secondLocale: Locale(identifier: secondLocaleID),
            openAfter: openAfter, pacing: pacing)
    } catch {
        // Unreadable audio: nothing to trace for this file; the others go on.
        FileHandle.standardError.write(Data("speech-harness-record: \(path): \(error)\n".utf8))
        failed = true
        continue
    }
    for scenario in scenarios {
        let name = "\(scenario.rawValue)--\(url.deletingPathExtension().lastPathComponent).jsonl"
        do {
            let trace = try await recorder.record(scenario)
            try trace.write(to: URL(fileURLWithPath: out).appendingPathComponent(name))
            print("\(name)")
        } catch {
            // The recorder could not run the scenario (no converter, an unwritable folder): nothing to trace.
            FileHandle.standardError.write(
                Data("speech-harness-record: \(path): \(scenario.rawValue): \(error)\n".utf8))
            failed = true
        }
    }
}
exit(failed ? 1 : 0)
