extension ProgressIterationRule {
    static let nonTriggeringExamples: [LintExample] = [
        LintExample(
            "the installation's progress observed, not iterated",
            ##"""
            import Speech

            func install(_ request: AssetInstallationRequest) async throws {
                print(request.progress.fractionCompleted)
                try await request.downloadAndInstall()
            }
            """##)
    ]

    static let triggeringExamples: [LintExample] = [
        LintExample(
            "a Foundation Progress is not an AsyncSequence",
            ##"""
            import Speech

            func install(_ request: AssetInstallationRequest) async throws {
                ↓for await step in request.progress { print(step) }
                try await request.downloadAndInstall()
            }
            """##)
    ]
}
