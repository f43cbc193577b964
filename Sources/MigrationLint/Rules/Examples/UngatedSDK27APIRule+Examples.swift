extension UngatedSDK27APIRule {
    /// An app deploying to iOS 26 and macOS 26, as its project file says.
    static let on26 = ProjectContext(
        deploymentTargets: DeploymentTargets(
            versions: ["iOS": .init("26.0")!, "macOS": .init("26.0")!], source: "Notes.xcodeproj/project.pbxproj"))

    static let nonTriggeringExamples: [LintExample] = [
        LintExample(
            "the 27 provider behind a gate naming both platforms, the 26 path kept",
            ##"""
            import AVFoundation
            import Speech

            func input(for transcriber: SpeechTranscriber) async throws -> any AsyncSequence<AnalyzerInput, any Error> {
                if #available(iOS 27, macOS 27, *), let microphone = AVCaptureDevice.default(for: .audio) {
                    let provider = try await CaptureInputSequenceProvider.providerWithSession(
                        from: microphone, compatibleWith: [transcriber])
                    provider.captureSession.startRunning()
                    return provider.analyzerInputs
                }
                return try await legacyInputs(for: transcriber)
            }
            """##, project: on26),
        LintExample(
            "a declaration marked available from 27 on both platforms",
            ##"""
            import Speech

            @available(iOS 27, macOS 27, *)
            final class FileFeed {
                func converter(for transcriber: SpeechTranscriber) async throws -> AnalyzerInputConverter {
                    try await AnalyzerInputConverter.converter(compatibleWith: [transcriber])
                }
            }
            """##, project: on26),
        LintExample(
            "after `guard #available` in an app that deploys to iOS alone",
            ##"""
            import Speech

            func convert(_ buffer: AVAudioPCMBuffer, _ transcriber: SpeechTranscriber) async throws -> [AnalyzerInput] {
                guard #available(iOS 27, *) else { return [try AnalyzerInput(buffer: buffer)] }
                let converter = try await AnalyzerInputConverter.converter(compatibleWith: [transcriber])
                return try converter.convert(buffer, at: nil) + converter.flush()
            }
            """##,
            project: ProjectContext(
                deploymentTargets: DeploymentTargets(versions: ["iOS": .init("26.0")!], source: "project.yml"))),
        LintExample(
            "an app that deploys to 27 needs no gate",
            ##"""
            import Speech

            func makeConverter(_ transcriber: SpeechTranscriber) async throws -> AnalyzerInputConverter {
                try await AnalyzerInputConverter.converter(compatibleWith: [transcriber])
            }
            """##,
            project: ProjectContext(
                deploymentTargets: DeploymentTargets(
                    versions: ["iOS": .init("27.0")!, "macOS": .init("27.0")!], source: "Package.swift"))),
        LintExample(
            "a type of the project's own with the name",
            files: [
                (
                    "Converter.swift",
                    ##"""
                    import Speech

                    final class AnalyzerInputConverter { func convert(_ samples: [Float]) -> [Float] { samples } }
                    """##
                ),
                ("Use.swift", "func use() { _ = AnalyzerInputConverter().convert([]) }"),
            ], project: on26),
    ]

    static let triggeringExamples: [LintExample] = [
        LintExample(
            "an ungated provider in an app deploying to 26: one finding for the function",
            ##"""
            import Speech

            func fileInputs(_ asset: AVURLAsset, _ transcriber: SpeechTranscriber) async throws -> some AsyncSequence {
                let provider = try await ↓AssetInputSequenceProvider.provider(from: asset, compatibleWith: [transcriber])
                let again = try await AssetInputSequenceProvider.provider(from: asset, compatibleWith: [transcriber])
                _ = again
                return provider.analyzerInputs
            }
            """##, project: on26),
        LintExample(
            "a gate naming macOS alone, in an app that also deploys to iOS 26",
            ##"""
            import Speech

            func makeConverter(_ transcriber: SpeechTranscriber) async throws -> Any? {
                if #available(macOS 27, *) {
                    return try await ↓AnalyzerInputConverter.converter(compatibleWith: [transcriber])
                }
                return nil
            }
            """##, project: on26),
        LintExample(
            "the 27 error code, in a package whose manifest names no platforms",
            ##"""
            import Speech

            func explain(_ error: SFSpeechError) -> String {
                error.code == .↓cannotConfigureAudioSystem ? "the microphone could not be set up" : "\(error)"
            }
            """##,
            project: ProjectContext(
                deploymentTargets: DeploymentTargets.packageManifest(
                    "let package = Package(name: \"A\")", file: "Package.swift"))),
        LintExample(
            "a function whose signature names a 27 type needs the gate as well (Swift asks for `@available` there)",
            ##"""
            import Speech

            func makeConverter(_ transcriber: SpeechTranscriber) async throws -> ↓AnalyzerInputConverter? {
                guard #available(iOS 27, macOS 27, *) else { return nil }
                return try await AnalyzerInputConverter.converter(compatibleWith: [transcriber])
            }
            """##, project: on26),
        LintExample(
            "no deployment setting in the files: the rule notes the use instead of judging it",
            ##"""
            import Speech

            func makeConverter(_ transcriber: SpeechTranscriber) async throws -> ⇣AnalyzerInputConverter {
                try await AnalyzerInputConverter.converter(compatibleWith: [transcriber])
            }
            """##),
    ]
}
