import AVFAudio
import EngineCore
import Foundation
import SpeechCore
import Testing
import VirtualDevice

@_spi(Harness) @testable import SpeechReference

@Suite("AssetInventory", .isolatedResources)
struct AssetInventoryTests {
    /// Runs `body` with a fresh asset store and an engine that needs assets per locale.
    func withInventory(maximum: Int = 2, _ body: (AssetStore, ScriptedEngine) async throws -> Void) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("inventory-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = AssetStore(root: root, maximumReservedLocales: maximum)
        let engine = ScriptedEngine(script: .evenlySpaced("hello"), requiresAssets: true)
        try await HarnessContext.$current.withValue(HarnessContext.current.with(\.assets, store)) {
            try await HarnessContext.$current.withValue(HarnessContext.current.with(\.engine, engine)) {
                try await body(store, engine)
            }
        }
    }

    func transcriber(_ locale: String, _ engine: any RecognitionEngine) -> SpeechTranscriber {
        SpeechTranscriber(locale: Locale(identifier: locale), preset: .transcription, engine: engine)
    }

    /// `<` follows the order the device's release declares the cases in: 26's, or 27's, where
    /// downloading comes before supported (the default device is 27).
    @Test(arguments: [
        (OSRelease.release26, [AssetInventory.Status.unsupported, .supported, .downloading, .installed]),
        (.release27, [.unsupported, .downloading, .supported, .installed]),
    ])
    func statusOrderFollowsTheRelease(release: OSRelease, order: [AssetInventory.Status]) {
        HarnessContext.$current.withValue(HarnessContext.current.with(\.device, DeviceSettings(osRelease: release))) {
            #expect([.installed, .unsupported, .downloading, .supported].sorted() == order)
            #expect(zip(order, order.dropFirst()).allSatisfy { $0 < $1 && !($1 < $0) })
            #expect(!(order[1] < order[1]))
        }
        #expect(DeviceSettings().osRelease == .release27)
    }

    @Test func statusReturnValues() async throws {
        try await withInventory { store, engine in
            let english = transcriber("en-US", engine)
            #expect(await AssetInventory.status(forModules: [english]) == .supported)
            #expect(await AssetInventory.status(forModules: [transcriber("ja-JP", engine), english]) == .unsupported)
            #expect(await AssetInventory.status(forModules: []) == .installed)
            // A detector needs no assets.
            #expect(await AssetInventory.status(forModules: [SpeechDetector()]) == .installed)
            try await AssetInventory.assetInstallationRequest(supporting: [english])?.downloadAndInstall()
            #expect(await AssetInventory.status(forModules: [english]) == .installed)
            #expect(await AssetInventory.status(forModules: [english, transcriber("fr-FR", engine)]) == .supported)
        }
    }

    @Test func installationRequestReservesInstallsWithProgressAndIsNilOnceInstalled() async throws {
        try await withInventory { store, engine in
            let french = transcriber("fr-FR", engine)
            let request = try #require(try await AssetInventory.assetInstallationRequest(supporting: [french]))
            #expect(await AssetInventory.reservedLocales.map(LocaleSupport.tag) == ["fr-FR"])
            #expect(request.progress.fractionCompleted == 0)
            try await request.downloadAndInstall()
            #expect(request.progress.fractionCompleted == 1)
            let package = try #require(engine.assetPackage(for: "fr-FR"))
            let file = try #require(store.installedFile("engine.json", of: package))
            #expect(SHA256.hex(try Data(contentsOf: file)) == package.files[0].sha256)
            #expect(try await AssetInventory.assetInstallationRequest(supporting: [french]) == nil)
        }
    }

    @Test func installationRequestThrowsForUnsupportedAndPastTheMaximum() async throws {
        try await withInventory(maximum: 1) { _, engine in
            await #expect(throws: SFSpeechError(.cannotAllocateUnsupportedLocale)) {
                try await AssetInventory.assetInstallationRequest(supporting: [transcriber("ja-JP", engine)])
            }
            _ = try await AssetInventory.assetInstallationRequest(supporting: [transcriber("de-DE", engine)])
            await #expect(throws: SFSpeechError(.tooManyAssetLocalesAllocated)) {
                try await AssetInventory.assetInstallationRequest(supporting: [transcriber("it-IT", engine)])
            }
        }
    }

    @Test func reserveAndReleaseReturnValues() async throws {
        try await withInventory(maximum: 2) { _, _ in
            #expect(AssetInventory.maximumReservedLocales == 2)
            let first = try await AssetInventory.reserve(locale: Locale(identifier: "en-US"))
            let again = try await AssetInventory.reserve(locale: Locale(identifier: "en_US"))
            // A regional variant reserves the supported locale.
            let variant = try await AssetInventory.reserve(locale: Locale(identifier: "es-AR"))
            #expect(first && !again && variant)
            #expect(await AssetInventory.reservedLocales.map(LocaleSupport.tag) == ["en-US", "es-MX"])
            await #expect(throws: SFSpeechError(.tooManyAssetLocalesAllocated)) {
                try await AssetInventory.reserve(locale: Locale(identifier: "fr-FR"))
            }
            await #expect(throws: SFSpeechError(.cannotAllocateUnsupportedLocale)) {
                try await AssetInventory.reserve(locale: Locale(identifier: "ja-JP"))
            }
            #expect(await AssetInventory.release(reservedLocale: Locale(identifier: "en-US")))
            #expect(await !AssetInventory.release(reservedLocale: Locale(identifier: "en-US")))
            #expect(await !AssetInventory.release(reservedLocale: Locale(identifier: "fr-FR")))
            #expect(await AssetInventory.reservedLocales.map(LocaleSupport.tag) == ["es-MX"])
        }
    }

    @Test func analysisWithoutInstalledAssetsIsNoModel() async throws {
        try await withInventory { _, engine in
            let analyzer = SpeechAnalyzer(modules: [transcriber("en-US", engine)])
            await #expect(throws: SFSpeechError(.noModel)) {
                try await analyzer.analyzeSequence(Fixture.stream(Fixture.inputs(count: 2)))
            }
        }
    }

    /// SDK 27's converter for modules is made from their best format: without their assets there
    /// is none, and it says which module lacks them.
    @Test func aConverterForModulesWithoutInstalledAssetsIsNoModel() async throws {
        try await withInventory { _, engine in
            await #expect(throws: SFSpeechError(.noModel)) {
                try await AnalyzerInputConverter.converter(compatibleWith: [transcriber("en-US", engine)])
            }
        }
    }

    @Test func concurrentInstallersShareOneInstallation() async throws {
        try await withInventory { store, engine in
            let package = try #require(engine.assetPackage(for: "ru-RU"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await store.install(package, progress: Progress(totalUnitCount: Int64(package.totalBytes)))
                    }
                }
                try await group.waitForAll()
            }
            #expect(store.isInstalled(package))
            #expect(!store.isInstalling(package))
        }
    }

    @Test func corruptSourceIsAChecksumError() async throws {
        try await withInventory { store, _ in
            var package = AssetPackage(
                id: "test/bad", version: 1, locale: "en-US", files: [.contents("a.bin", [1, 2, 3])])
            package.files[0].sha256 = String(repeating: "0", count: 64)
            await #expect(throws: AssetStore.InstallError.self) {
                try await store.install(package, progress: Progress(totalUnitCount: 3))
            }
            #expect(!store.isInstalled(package))
        }
    }

    @Test func sha256KnownAnswers() {
        #expect(SHA256.hex(Array("".utf8)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256.hex(long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
