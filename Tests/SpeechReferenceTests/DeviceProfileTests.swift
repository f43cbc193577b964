import AVFAudio
import EngineCore
import Foundation
import SpeechCore
import Testing
import VirtualDevice

@_spi(Harness) @testable import SpeechReference

/// What Apple-style code sees under each device profile (docs/device-profiles.md).
@Suite("Device profiles", .isolatedResources)
struct DeviceProfileTests {
    func on<T>(
        _ device: DeviceSettings, engine: ScriptedEngine = Fixture.engine(),
        _ body: (ScriptedEngine) async throws -> T
    ) async throws -> T {
        try await Fixture.onDevice(device, engine: engine, body)
    }

    @Test func hardwareWithoutSpeechTranscriberStillDictates() async throws {
        try await on(DeviceSettings(speechTranscriberAvailable: false)) { _ in
            #expect(!SpeechTranscriber.isAvailable)
            #expect(await SpeechTranscriber.supportedLocales.isEmpty)
            #expect(await SpeechTranscriber.installedLocales.isEmpty)
            #expect(await SpeechTranscriber.supportedLocale(equivalentTo: .current) == nil)
            #expect(await DictationTranscriber.supportedLocale(equivalentTo: .current) != nil)

            // A transcriber made anyway cannot be installed or run.
            let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .transcription)
            #expect(await AssetInventory.status(forModules: [transcriber]) == .unsupported)
            await #expect(throws: SFSpeechError(.cannotAllocateUnsupportedLocale)) {
                _ = try await AssetInventory.assetInstallationRequest(supporting: [transcriber])
            }
            let failing = SpeechAnalyzer(modules: [transcriber])
            await #expect(throws: SFSpeechError(.noModel)) {
                _ = try await failing.analyzeSequence(Fixture.stream(Fixture.inputs(count: 5)))
            }

            // The fallback the guide recommends works.
            let dictation = DictationTranscriber(locale: Locale(identifier: "en-US"), preset: .shortDictation)
            let analyzer = SpeechAnalyzer(modules: [dictation])
            let last = try await analyzer.analyzeSequence(Fixture.stream(Fixture.inputs(count: 25)))
            try await analyzer.finalizeAndFinish(through: #require(last))
            let text = await collect(dictation.results).elements.map { String($0.text.characters) }.joined()
            #expect(!text.isEmpty)
        }
    }

    @Test func aVirtualMachineOffersNoLocales() async throws {
        try await on(DeviceSettings(offersLocales: false)) { _ in
            #expect(SpeechTranscriber.isAvailable)
            #expect(await SpeechTranscriber.supportedLocales.isEmpty)
            #expect(await DictationTranscriber.supportedLocales.isEmpty)
            #expect(await SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: "en-US")) == nil)
            await #expect(throws: SFSpeechError(.cannotAllocateUnsupportedLocale)) {
                try await AssetInventory.reserve(locale: Locale(identifier: "en-US"))
            }
        }
    }

    func assetsEngine() -> ScriptedEngine { ScriptedEngine(script: .evenlySpaced("hello"), requiresAssets: true) }

    @Test func aSlowDownloadAdvancesItsProgressOverTheStatedTime() async throws {
        let clock = SkippingClock()
        try await HarnessContext.$current.withValue(HarnessContext.current.with(\.clock, clock)) {
            try await on(DeviceSettings(assetDownloads: .slow(seconds: 3)), engine: assetsEngine()) { _ in
                let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .transcription)
                let request = try #require(try await AssetInventory.assetInstallationRequest(supporting: [transcriber]))
                try await request.downloadAndInstall()
                let history = request.progressHistory
                // A tenth of the bytes (rounded down) every 0.3 s of the device's clock.
                #expect(history.count == 10)
                for (step, point) in history.enumerated() {
                    #expect(abs(point.fraction - Double(step + 1) / 10) < 0.02)
                    #expect(abs(point.seconds - Double(step + 1) * 0.3) < 1e-9)
                }
                #expect(clock.now.offset == .seconds(3))
                #expect(await AssetInventory.status(forModules: [transcriber]) == .installed)
            }
        }
    }

    @Test func whileASlowDownloadRunsTheModuleIsDownloading() async throws {
        let clock = VirtualClock()
        try await HarnessContext.$current.withValue(HarnessContext.current.with(\.clock, clock)) {
            try await on(DeviceSettings(assetDownloads: .slow(seconds: 2)), engine: assetsEngine()) { _ in
                let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .transcription)
                let request = try #require(try await AssetInventory.assetInstallationRequest(supporting: [transcriber]))
                let download = Task { try await request.downloadAndInstall() }
                while clock.sleeperCount == 0 { await Task.yield() }
                #expect(await AssetInventory.status(forModules: [transcriber]) == .downloading)
                for _ in 0..<10 {
                    while clock.sleeperCount == 0 { await Task.yield() }
                    clock.advance(by: .milliseconds(200))
                }
                try await download.value
                #expect(request.progress.fractionCompleted == 1)
                #expect(await AssetInventory.status(forModules: [transcriber]) == .installed)
            }
        }
    }

    /// The failures throw Foundation's errors for the condition and install nothing.
    @Test(arguments: [
        (AssetDownloads.failMidway, NSURLErrorDomain, NSURLErrorNetworkConnectionLost, 0.5),
        (.offline, NSURLErrorDomain, NSURLErrorNotConnectedToInternet, 0),
        (.diskFull, NSCocoaErrorDomain, CocoaError.fileWriteOutOfSpace.rawValue, 0),
    ])
    func aFailedDownloadThrowsAndInstallsNothing(
        _ downloads: AssetDownloads, domain: String, code: Int, fraction: Double
    ) async throws {
        try await on(DeviceSettings(assetDownloads: downloads), engine: assetsEngine()) { _ in
            let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .transcription)
            let request = try #require(try await AssetInventory.assetInstallationRequest(supporting: [transcriber]))
            let error = await #expect(throws: (any Error).self) { try await request.downloadAndInstall() }
            let reported = try #require(error) as NSError
            #expect(reported.domain == domain && reported.code == code)
            #expect(abs(request.progress.fractionCompleted - fraction) < 0.02)
            #expect(await AssetInventory.status(forModules: [transcriber]) == .supported)
        }
    }
}
