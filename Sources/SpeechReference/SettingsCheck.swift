import SpeechCore

/// The check the reference's throwing Apple API makes before it acts on the settings: the
/// environment's settings (`HarnessEnvironment.validated()`) and, in builds with planted
/// faults, the fault setting's name.
enum SettingsCheck {
    static func validate() throws(HarnessSettingsProblem) {
        _ = try HarnessContext.current.environment.validated()
        #if SPEECH_HARNESS_MUTATIONS
            if let problem = PlantedFault.settingProblem { throw .setting(problem) }
        #endif
    }
}
